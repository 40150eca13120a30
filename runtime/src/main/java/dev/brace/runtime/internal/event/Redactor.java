package dev.brace.runtime.internal.event;

import java.util.Locale;
import java.util.Set;

/**
 * Removes secrets from text before it leaves Brace in an event, a log line or a span: the userinfo
 * of every URL ({@code https://user:pass@host} becomes {@code https://host}) and the values of
 * sensitive query and fragment parameters ({@code ?api_key=abc} becomes {@code ?api_key=REDACTED}).
 * URLs are found anywhere in free text, so an exception message that quotes a request URL is
 * cleaned too. Everything else is left exactly as it was.
 *
 * <p>Text without {@code @}, {@code ?} or {@code #} cannot hold either kind of secret and is
 * returned as the same instance after one scan; a builder is made only at the first change.
 */
public final class Redactor {
  /** What replaces a secret parameter value. */
  public static final String REDACTED = "REDACTED";

  private static final Set<String> SENSITIVE =
      Set.of(
          "api_key", "apikey", "access_token", "refresh_token", "token", "secret", "client_secret",
          "password", "passwd", "signature", "sig", "auth", "key");

  private Redactor() {}

  /**
   * @param text any text, possibly holding URLs; may be null
   * @return the text with URL userinfo and sensitive parameter values removed; the same instance
   *     when there was nothing to remove
   */
  public static String redact(String text) {
    if (text == null || !mayHoldSecret(text)) {
      return text;
    }
    StringBuilder out = null;
    int copied = 0;
    boolean inQuery = false;
    int length = text.length();
    int i = 0;
    while (i < length) {
      char c = text.charAt(i);
      if (endsToken(c)) {
        inQuery = false;
        i++;
      } else if (c == ':' && text.startsWith("//", i + 1)) {
        int authorityStart = i + 3;
        int end = authorityStart;
        int lastAt = -1;
        while (end < length && !endsAuthority(text.charAt(end))) {
          if (text.charAt(end) == '@') {
            lastAt = end;
          }
          end++;
        }
        if (lastAt >= 0) {
          out = copy(out, text, copied, authorityStart);
          copied = lastAt + 1;
        }
        i = end;
      } else if (c == '?' || c == '#' || (inQuery && (c == '&' || c == ';'))) {
        inQuery = true;
        int valueStart = sensitiveValueStart(text, i + 1);
        if (valueStart < 0) {
          i++;
          continue;
        }
        int valueEnd = valueEnd(text, valueStart);
        if (valueEnd > valueStart) {
          out = copy(out, text, copied, valueStart).append(REDACTED);
          copied = valueEnd;
        }
        i = valueEnd;
      } else {
        i++;
      }
    }
    if (out == null) {
      return text;
    }
    return out.append(text, copied, length).toString();
  }

  private static boolean mayHoldSecret(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '@' || c == '?' || c == '#') {
        return true;
      }
    }
    return false;
  }

  /**
   * @return where the value of the parameter starting at {@code nameStart} begins, when its name
   *     is sensitive; else -1
   */
  private static int sensitiveValueStart(String text, int nameStart) {
    int equals = nameStart;
    while (equals < text.length() && isNameChar(text.charAt(equals))) {
      equals++;
    }
    if (equals == nameStart || equals >= text.length() || text.charAt(equals) != '=') {
      return -1;
    }
    String name = text.substring(nameStart, equals).toLowerCase(Locale.ROOT);
    return SENSITIVE.contains(name) ? equals + 1 : -1;
  }

  /**
   * A value runs to the next separator or the end of the token. Punctuation that closes the token
   * ({@code "...?token=abc)."}) belongs to the sentence, not to the value, so it is kept.
   */
  private static int valueEnd(String text, int valueStart) {
    int end = valueStart;
    while (end < text.length() && !endsValue(text.charAt(end))) {
      end++;
    }
    if (end == text.length() || endsToken(text.charAt(end))) {
      while (end > valueStart && isClosingPunctuation(text.charAt(end - 1))) {
        end--;
      }
    }
    return end;
  }

  private static StringBuilder copy(StringBuilder out, String text, int from, int to) {
    StringBuilder builder = out != null ? out : new StringBuilder(text.length());
    return builder.append(text, from, to);
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.';
  }

  private static boolean endsToken(char c) {
    return Character.isWhitespace(c) || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`';
  }

  private static boolean endsAuthority(char c) {
    return endsToken(c) || c == '/' || c == '?' || c == '#';
  }

  private static boolean endsValue(char c) {
    return endsToken(c) || c == '&' || c == ';' || c == '#';
  }

  private static boolean isClosingPunctuation(char c) {
    return c == '.' || c == ',' || c == ':' || c == '!' || c == ')' || c == ']' || c == '}';
  }
}
