package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.List;
import java.util.Optional;
import javax.lang.model.type.TypeMirror;

/**
 * One pattern of one call, validated: the config to build at run time.
 *
 * @param kind which pattern
 * @param name the instance's name, defaults resolved
 * @param settings the attributes written at the site, in declaration order: what the generated
 *     code passes (the runtime supplies every default)
 * @param effective every attribute with defaults applied: what the call will run with unless
 *     configuration says otherwise, and what two sites that share a name must agree on
 * @param site where it is written, for messages
 */
record PatternModel(
    Kind kind,
    String name,
    List<Setting> settings,
    List<Setting> effective,
    AnnotationSite site) {

  /** @return the effective settings as a user reads them, to compare two sites that share a name */
  String effectiveSettings() {
    StringBuilder text = new StringBuilder();
    for (Setting setting : effective) {
      text.append(setting.attribute()).append('=').append(setting.describe()).append(' ');
    }
    return text.toString().trim();
  }

  /** @return the {@code onResult} class, when one is given */
  Optional<TypeMirror> resultPredicate() {
    return settings.stream()
        .filter(setting -> setting.value() instanceof Setting.NewInstance)
        .map(setting -> ((Setting.NewInstance) setting.value()).type())
        .findFirst();
  }
}
