package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Reads one Brace annotation into a {@link PatternModel}, checking its values with the runtime. */
final class PatternReader {
  private static final String PREDICATE = "java.util.function.Predicate";

  /** Attributes that name the instance or the fallback method rather than set it. */
  private static final Set<String> NOT_SETTINGS = Set.of("name", "method");

  private final Report report;

  PatternReader(Report report) {
    this.report = report;
  }

  /**
   * @param site the annotation
   * @param callName the call it applies to ({@code Interface.method})
   * @param interfaceName the declaring interface's name ({@code Outer.Inner}), the default name of
   *     system-scoped instances
   * @return the pattern, or empty after reporting why not (or when javac already reports a broken
   *     annotation)
   */
  Optional<PatternModel> read(AnnotationSite site, String callName, String interfaceName) {
    Kind kind = site.kind();
    String name = nameOf(site, callName, interfaceName);
    // Every attribute, defaults included, to compare two sites by what they mean; only the written
    // ones go into the generated code, so the runtime is the one place defaults come from.
    List<Setting> effective = new ArrayList<>();
    List<Setting> settings = new ArrayList<>();
    for (Map.Entry<String, AnnotationValue> attribute : site.values().entrySet()) {
      if (NOT_SETTINGS.contains(attribute.getKey())) {
        continue;
      }
      Setting.Value value = convert(attribute.getValue().getValue());
      if (value == null) {
        return Optional.empty(); // an unresolvable value: javac reports it
      }
      Setting setting = new Setting(attribute.getKey(), kind.property(attribute.getKey()), value);
      effective.add(setting);
      if (!(value instanceof Setting.NoPredicate) && site.explicitValue(attribute.getKey()) != null) {
        settings.add(setting);
      }
    }
    Optional<RuntimeConfigCheck.Refusal> refusal = RuntimeConfigCheck.check(kind, name, settings);
    if (refusal.isPresent()) {
      String attribute = refusal.get().attribute();
      if (attribute.equals("name")) {
        report.error(site, "name", Message.INVALID_NAME, kind.annotation().getSimpleName(), where(site),
            refusal.get().accepted());
      } else {
        String written =
            settings.stream()
                .filter(setting -> setting.attribute().equals(attribute))
                .map(Setting::describe)
                .findFirst()
                .orElse("(missing)");
        report.error(site, attribute, Message.INVALID_VALUE, kind.annotation().getSimpleName(), where(site),
            attribute, written, refusal.get().accepted());
      }
      return Optional.empty();
    }
    return Optional.of(new PatternModel(kind, name, List.copyOf(settings), List.copyOf(effective), site));
  }

  private static String nameOf(AnnotationSite site, String callName, String interfaceName) {
    Object written = site.value("name");
    if (written instanceof String name && !name.isEmpty()) {
      return name;
    }
    return site.kind().scope() == Kind.Scope.SYSTEM ? interfaceName : callName;
  }

  /** Where an annotation is written, for messages: {@code RecsClient.recommendations} or {@code RecsClient}. */
  static String where(AnnotationSite site) {
    return Naming.describe(site.owner());
  }

  /** @return the value in its shape, or null for one javac could not resolve */
  private static Setting.Value convert(Object value) {
    if (value instanceof Integer || value instanceof Double) {
      return new Setting.Number((Number) value);
    }
    if (value instanceof String text) {
      return new Setting.Text(text);
    }
    if (value instanceof Boolean flag) {
      return new Setting.Flag(flag);
    }
    if (value instanceof DeclaredType type) {
      // onResult: the default Predicate.class means "no predicate" and is not passed at all
      boolean none = ((TypeElement) type.asElement()).getQualifiedName().contentEquals(PREDICATE);
      return none ? new Setting.NoPredicate() : new Setting.NewInstance(type);
    }
    if (value instanceof TypeMirror) {
      return null;
    }
    if (value instanceof VariableElement constant) {
      return new Setting.EnumConstant(constant.asType(), constant.getSimpleName().toString());
    }
    if (value instanceof List<?> list) {
      List<TypeMirror> types = new ArrayList<>();
      for (Object element : list) {
        Object type = ((AnnotationValue) element).getValue();
        if (!(type instanceof TypeMirror mirror) || mirror.getKind() == TypeKind.ERROR) {
          return null;
        }
        types.add(mirror);
      }
      return new Setting.Types(List.copyOf(types));
    }
    return null;
  }
}
