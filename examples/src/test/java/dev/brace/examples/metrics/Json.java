package dev.brace.examples.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader (RFC 8259) for the dashboard test: objects become maps, arrays lists,
 * numbers doubles. Anything else, trailing text included, is an error naming the offset.
 */
final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /**
   * @param text a JSON document
   * @return its value
   * @throws IllegalArgumentException when it is not valid JSON
   */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.at != text.length()) {
      throw json.error("text after the value");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (at >= text.length()) {
      throw error("a value expected");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> object = new LinkedHashMap<>();
    at++;
    skipSpace();
    if (peek('}')) {
      at++;
      return object;
    }
    while (true) {
      skipSpace();
      if (!peek('"')) {
        throw error("a member name expected");
      }
      String name = string();
      skipSpace();
      expect(':');
      if (object.put(name, value()) != null) {
        throw error("duplicate member " + name);
      }
      skipSpace();
      if (peek(',')) {
        at++;
      } else {
        expect('}');
        return object;
      }
    }
  }

  private List<Object> array() {
    List<Object> array = new ArrayList<>();
    at++;
    skipSpace();
    if (peek(']')) {
      at++;
      return array;
    }
    while (true) {
      array.add(value());
      skipSpace();
      if (peek(',')) {
        at++;
      } else {
        expect(']');
        return array;
      }
    }
  }

  private String string() {
    StringBuilder out = new StringBuilder();
    at++;
    while (true) {
      if (at >= text.length()) {
        throw error("an unterminated string");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw error("a control character in a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escaped = text.charAt(at++);
      switch (escaped) {
        case '"', '\\', '/' -> out.append(escaped);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> throw error("a bad escape \\" + escaped);
      }
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error(word + " expected");
    }
    at += word.length();
    return value;
  }

  private Double number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    String number = text.substring(start, at);
    if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
      throw error("not a number: '" + number + "'");
    }
    return Double.parseDouble(number);
  }

  private void skipSpace() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("'" + c + "' expected");
    }
    at++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + at);
  }
}
