package dev.brace.runtime.generated;

/** Builds key values from the parts a key template names; generated code calls it. */
public final class Keys {
  private Keys() {}

  /**
   * @param value the value of {@code {path}} in the template
   * @param path the template's name for it ({@code userId}, {@code request.host})
   * @param callName the call, for the message
   * @return the value as text
   * @throws IllegalArgumentException when the value is null, naming the parameter
   */
  public static String part(Object value, String path, String callName) {
    if (value == null) {
      throw new IllegalArgumentException(
          callName + ": key part {" + path + "} is null; a key template needs a value for every part");
    }
    return value.toString();
  }
}
