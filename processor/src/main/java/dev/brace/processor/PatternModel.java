package dev.brace.processor;

import java.util.List;
import java.util.Optional;
import javax.lang.model.type.TypeMirror;

/**
 * One pattern of one call, validated: the config to build at run time.
 *
 * @param kind which pattern
 * @param name the instance's name, defaults resolved
 * @param settings every attribute, defaults included, in declaration order
 * @param site where it is written, for messages
 */
record PatternModel(
    PatternKind kind,
    String name,
    List<Setting> settings,
    AnnotationSite site) {

  /** @return the {@code onResult} class, when one is given */
  Optional<TypeMirror> resultPredicate() {
    return settings.stream()
        .filter(setting -> setting.value() instanceof Setting.NewInstance)
        .map(setting -> ((Setting.NewInstance) setting.value()).type())
        .findFirst();
  }

  /** @return the settings as a user reads them, to compare two sites that share a name */
  String describeSettings() {
    StringBuilder text = new StringBuilder();
    for (Setting setting : settings) {
      text.append(setting.attribute()).append('=').append(setting.describe()).append(' ');
    }
    return text.toString().trim();
  }
}
