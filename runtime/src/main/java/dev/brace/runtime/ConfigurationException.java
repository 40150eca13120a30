package dev.brace.runtime;

import dev.brace.runtime.internal.Message;
import dev.brace.runtime.config.Kind;

/**
 * A setting that does not parse, is out of range, or conflicts with another. Thrown when the
 * registry or the wrapper that uses the setting is created, never later; the message names the
 * setting, the value and the accepted form.
 */
public final class ConfigurationException extends ResilienceException {
  private static final long serialVersionUID = 1L;

  /** The attribute at fault, or {@code null} when the problem is not one attribute's. */
  private final String attribute;
  /** The refused value as given, or {@code null}. */
  private final String value;
  /** What would have been accepted, or {@code null}. */
  private final String accepted;

  /** @param message names the setting, the value and what is accepted */
  public ConfigurationException(String message) {
    this(message, null);
  }

  /**
   * @param message names the setting, the value and what is accepted
   * @param cause the parse failure, or {@code null}
   */
  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
    this.attribute = null;
    this.value = null;
    this.accepted = null;
  }

  /**
   * A value of one attribute of one instance that is not accepted.
   *
   * @param kind the instance's kind
   * @param instance the instance's name
   * @param attribute the attribute as written in the annotation ({@code maxAttempts})
   * @param value the refused value as given
   * @param accepted what would have been accepted
   */
  public ConfigurationException(
      Kind kind, String instance, String attribute, String value, String accepted) {
    super(Message.INVALID_VALUE.format(
        kind.description(), instance, attribute, value == null ? "null" : "\"" + value + "\"", accepted));
    this.attribute = attribute;
    this.value = value;
    this.accepted = accepted;
  }

  /** @return the attribute at fault, or {@code null} when the problem is not one attribute's */
  public String attribute() {
    return attribute;
  }

  /** @return the refused value, or {@code null} */
  public String value() {
    return value;
  }

  /**
   * @return the message's tag, e.g. {@code [brace:invalid-value]}, to search the docs for; null
   *     when the message has none
   */
  public String tag() {
    String message = getMessage();
    if (message == null || !message.startsWith("[brace:")) {
      return null;
    }
    int end = message.indexOf(']');
    return end < 0 ? null : message.substring(0, end + 1);
  }

  /** @return the accepted form, or {@code null} */
  public String accepted() {
    return accepted;
  }
}
