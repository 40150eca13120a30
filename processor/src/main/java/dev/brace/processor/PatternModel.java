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
 * @param effectiveSettings every attribute with defaults applied, as a user reads them: two sites
 *     that share a name agree when these are equal
 * @param site where it is written, for messages
 */
record PatternModel(
    Kind kind,
    String name,
    List<Setting> settings,
    String effectiveSettings,
    AnnotationSite site) {

  /** @return the {@code onResult} class, when one is given */
  Optional<TypeMirror> resultPredicate() {
    return settings.stream()
        .filter(setting -> setting.value() instanceof Setting.NewInstance)
        .map(setting -> ((Setting.NewInstance) setting.value()).type())
        .findFirst();
  }
}
