package dev.brace.processor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.lang.model.type.TypeMirror;

/**
 * A fragment of generated code: text, the classes it names (each a {@link ClassRef}, which the
 * file writes imported or qualified once it knows every name it uses) and the places where a long
 * declaration may break. Built from a format whose placeholders take the arguments in order:
 *
 * <ul>
 *   <li>{@code $T} a type: a {@link ClassRef}, a {@link Class}, a {@link TypeMirror} or a type
 *       already written as {@code Code}
 *   <li>{@code $S} a string, written as a Java string literal ({@code null} as {@code null})
 *   <li>{@code $N} a name, written as it is
 *   <li>{@code $L} code, written as it is; anything else by its {@code String.valueOf}
 *   <li>{@code $W} a space where a declaration may break, {@code $Z} a break with no space
 *   <li>{@code $$} a dollar sign
 * </ul>
 *
 * Immutable. Equal code has equal text: {@link #toString()} writes every class qualified.
 */
final class Code {
  /** A place where {@link JavaSource} may break a line that would pass its column limit. */
  enum Break {
    /** Written as a space when the line goes on. */
    SPACE,
    /** Written as nothing when the line goes on. */
    NOTHING
  }

  static final Code EMPTY = new Code(List.of());

  /** Each a {@code String}, a {@link ClassRef} or a {@link Break}. */
  private final List<Object> parts;

  private Code(List<Object> parts) {
    this.parts = parts;
  }

  static Code of(String format, Object... arguments) {
    List<Object> parts = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int next = 0;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '$') {
        text.append(c);
        continue;
      }
      char placeholder = format.charAt(++i);
      switch (placeholder) {
        case '$' -> text.append('$');
        case 'N' -> text.append(arguments[next++]);
        case 'S' -> text.append(stringLiteral((String) arguments[next++]));
        case 'T', 'L', 'W', 'Z' -> {
          flush(text, parts);
          switch (placeholder) {
            case 'T' -> parts.addAll(type(arguments[next++]).parts);
            case 'L' -> literal(arguments[next++], parts);
            case 'W' -> parts.add(Break.SPACE);
            default -> parts.add(Break.NOTHING);
          }
        }
        default -> throw new IllegalArgumentException("no placeholder $" + placeholder + " in " + format);
      }
    }
    if (next != arguments.length) {
      throw new IllegalArgumentException(arguments.length + " arguments for " + next + " placeholders in " + format);
    }
    flush(text, parts);
    return new Code(Collections.unmodifiableList(parts));
  }

  /** @return the codes with the separator between them: {@code a, b, c} */
  static Code join(List<Code> codes, String separator) {
    return join(codes, new Code(List.of(separator)));
  }

  /** @return the codes with the separator, which may hold a break, between them */
  static Code join(List<Code> codes, Code separator) {
    List<Object> parts = new ArrayList<>();
    for (int i = 0; i < codes.size(); i++) {
      if (i > 0) {
        parts.addAll(separator.parts);
      }
      parts.addAll(codes.get(i).parts);
    }
    return new Code(Collections.unmodifiableList(parts));
  }

  private static Code type(Object type) {
    if (type instanceof ClassRef reference) {
      return new Code(List.of(reference));
    }
    if (type instanceof Class<?> primitive && primitive.isPrimitive()) {
      return new Code(List.of(primitive.getName()));
    }
    if (type instanceof Class<?> declared) {
      return new Code(List.of(ClassRef.of(declared)));
    }
    if (type instanceof TypeMirror mirror) {
      return TypeCode.of(mirror);
    }
    if (type instanceof Code code) {
      return code;
    }
    throw new IllegalArgumentException("not a type: " + type);
  }

  private static void literal(Object literal, List<Object> parts) {
    if (literal instanceof Code code) {
      parts.addAll(code.parts);
    } else {
      parts.add(String.valueOf(literal));
    }
  }

  private static void flush(StringBuilder text, List<Object> parts) {
    if (text.length() > 0) {
      parts.add(text.toString());
      text.setLength(0);
    }
  }

  /** {@code "a\"b"}: escaped as the Java language requires; other control characters as {@code \}{@code u0007}. */
  static String stringLiteral(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder literal = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> literal.append("\\\"");
        case '\\' -> literal.append("\\\\");
        case '\b' -> literal.append("\\b");
        case '\t' -> literal.append("\\t");
        case '\n' -> literal.append("\\n");
        case '\f' -> literal.append("\\f");
        case '\r' -> literal.append("\\r");
        default -> literal.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return literal.append('"').toString();
  }

  /** @return the parts, in order: each a {@code String}, a {@link ClassRef} or a {@link Break} */
  List<Object> parts() {
    return parts;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Code code && code.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** @return the code with every class qualified and every break a space where it has one */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (Object part : parts) {
      if (part != Break.NOTHING) {
        text.append(part == Break.SPACE ? " " : part);
      }
    }
    return text.toString();
  }
}
