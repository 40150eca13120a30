package dev.brace.processor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.SourceVersion;

/**
 * Splits a key template ({@code "user:{userId}"}, {@code "{request.host}"}) into literal text and
 * property paths. Pure text work; {@link KeyResolver} gives the paths a meaning.
 */
final class KeyTemplateParser {

  /** A template that does not parse; the message says why. */
  static final class MalformedKeyException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedKeyException(String reason) {
      super(reason);
    }
  }

  /**
   * One piece of a template: either literal text or a path.
   *
   * @param literal the text, or null for a path
   * @param path the path's names ({@code request}, {@code host}), or null for text
   */
  record Piece(String literal, List<String> path) {}

  private KeyTemplateParser() {}

  /**
   * @param template the key template, not empty
   * @return its pieces in order
   * @throws MalformedKeyException on unbalanced braces, an empty part or a name that is not an
   *     identifier
   */
  static List<Piece> parse(String template) throws MalformedKeyException {
    List<Piece> pieces = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int index = 0;
    while (index < template.length()) {
      char c = template.charAt(index);
      if (c == '}') {
        throw new MalformedKeyException("'}' at position " + index + " closes nothing");
      }
      if (c != '{') {
        literal.append(c);
        index++;
        continue;
      }
      int close = template.indexOf('}', index);
      int nestedOpen = template.indexOf('{', index + 1);
      if (close < 0 || (nestedOpen >= 0 && nestedOpen < close)) {
        throw new MalformedKeyException("'{' at position " + index + " is not closed");
      }
      String path = template.substring(index + 1, close).trim();
      if (path.isEmpty()) {
        throw new MalformedKeyException("{} at position " + index + " names nothing");
      }
      List<String> names = Arrays.asList(path.split("\\.", -1));
      for (String name : names) {
        if (!SourceVersion.isIdentifier(name) || SourceVersion.isKeyword(name)) {
          throw new MalformedKeyException(
              "{" + path + "} is not a parameter name or a path such as {param.property}");
        }
      }
      if (literal.length() > 0) {
        pieces.add(new Piece(literal.toString(), null));
        literal.setLength(0);
      }
      pieces.add(new Piece(null, List.copyOf(names)));
      index = close + 1;
    }
    if (literal.length() > 0) {
      pieces.add(new Piece(literal.toString(), null));
    }
    return pieces;
  }
}
