package dev.brace.runtime.internal;

import java.util.Locale;

/**
 * Every text the runtime puts in an exception about the user's settings or use, in one place.
 * Each starts with a tag such as {@code [brace:name-conflict]}, the same tag the processor uses
 * for the same mistake at compile time, so a user can search for it in the docs.
 */
public enum Message {
  /** An attribute's value does not parse or is out of range. */
  INVALID_VALUE("%s '%s': %s = %s is not accepted; expected %s"),
  /** A value from the environment or a system property was refused: the key, then why. */
  INVALID_SETTING("invalid-value", "%s=%s: %s"),
  /** An {@code _ENABLED} switch that is neither true nor false. */
  INVALID_SWITCH("%s=%s: expected true or false"),
  /** Two sites give one shared instance different effective settings. */
  NAME_CONFLICT(
      "%s '%s' has %s = %s at %s and %s at %s; one name is one shared instance, so give both sites"
          + " the same value, or set it once outside them (Registry.builder(), environment or system"
          + " property)"),
  /** A site's key does not match the key its shared instance is configured with. */
  KEY_MISMATCH("%s '%s' is %s, but %s %s; a generated wrapper computes its key from the template"
      + " written on it, so configuration cannot add, drop or change it"),
  /** Configuration makes a fallback answer failures its method cannot take. */
  FALLBACK_WIDENED(
      "the fallback of %s, %s, takes %s, but its configured on = %s includes %s, which is not a %s;"
          + " the fallback method could not receive it"),
  /** An instance names a backend the registry was not given. */
  UNKNOWN_BACKEND("%s '%s': backend = \"%s\" is not accepted; expected one of %s (give a backend to"
      + " Registry.builder().backend(name, backend))"),
  /** Configuration keys that configure nothing, with strict configuration on. */
  UNKNOWN_KEYS("Brace configuration keys that configure nothing:%n  %s"),
  /** A reconfiguration changes what a live instance cannot change while it runs. */
  NOT_LIVE("%s '%s': %s"),
  /** A reconfiguration with at least one refused setting; nothing was changed. */
  RECONFIGURATION_REFUSED("reconfiguration refused, nothing changed:%n  %s"),
  /** A lookup by a name the registry never created. */
  UNKNOWN_INSTANCE("this registry has no %s named '%s'; it has %s"),
  /** A lookup of an instance that configuration switched off. */
  SWITCHED_OFF("%s '%s' is switched off by configuration (%s or %s is false), so this registry never created it"),
  /** A stack built with two parts of one kind. */
  STACK_DUPLICATE_PART("stack '%s': %s; two parts of one kind need an order only you know: nest two stacks instead"),
  /** A stack built with no part. */
  STACK_EMPTY("stack '%s' has no part; it would run the call unchanged. Add at least one of %s"),
  /** A keyed stack called without a key. */
  STACK_KEY_MISSING("stack '%s' has a keyed part; call it with a key: call(key, call) or callAsync(key, call)"),
  /** {@code Brace.wrap} found no generated class. */
  WRAPPER_MISSING(
      "%s was not generated for %s; put brace-processor on the annotation processor path (Maven:"
          + " maven-compiler-plugin annotationProcessorPaths; Gradle: annotationProcessor) and annotate"
          + " the interface or its methods");

  private final String tag;
  private final String format;

  Message(String format) {
    this.tag = null;
    this.format = format;
  }

  /** For a message that reports the same mistake as another, under its tag. */
  Message(String tag, String format) {
    this.tag = tag;
    this.format = format;
  }

  /** @return the tag users search for, e.g. {@code [brace:name-conflict]} */
  public String tag() {
    return "[brace:" + (tag != null ? tag : name().toLowerCase(Locale.ROOT).replace('_', '-')) + "]";
  }

  /**
   * @param text a message of this enum
   * @return the text without its tag, to quote inside another message
   */
  public static String untagged(String text) {
    return text == null ? null : text.replaceFirst("^\\[brace:[a-z-]+\\] ", "");
  }

  /**
   * @param arguments the values of the message's placeholders
   * @return the tagged text
   */
  public String format(Object... arguments) {
    return tag() + " " + String.format(Locale.ROOT, format, arguments);
  }
}
