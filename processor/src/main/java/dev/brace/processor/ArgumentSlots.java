package dev.brace.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * Where a generated method puts each of its arguments in the runtime's {@code Arguments}: up to
 * four reference arguments in slots {@code a} to {@code d}, up to two primitive ones widened to
 * {@code long} in {@code x} and {@code y}; a method with more of either kind passes all of them,
 * boxed, in one {@code Object[]} in {@code a}. Knows both sides: the call site's argument list, and
 * how a lambda reads a parameter back with its type.
 */
final class ArgumentSlots {
  private static final int REFERENCE_SLOTS = 4;
  private static final int PRIMITIVE_SLOTS = 2;
  private static final String[] REFERENCES = {"a", "b", "c", "d"};
  private static final String[] PRIMITIVES = {"x", "y"};

  private final List<String> names = new ArrayList<>();
  private final List<TypeMirror> parameterTypes;
  /** Per parameter: its slot's name, or null when every argument is packed in {@code a}. */
  private final List<String> slots = new ArrayList<>();
  private final boolean packed;
  private final Types types;

  /**
   * @param method the method
   * @param type its type as a member of the wrapped interface
   * @param takesContinuation whether its last parameter is a Kotlin {@code suspend} function's
   *     continuation, which is the call's own rather than an argument: it takes no slot
   * @param types the compilation's type utilities
   */
  ArgumentSlots(ExecutableElement method, ExecutableType type, boolean takesContinuation, Types types) {
    this.types = types;
    int arguments = type.getParameterTypes().size() - (takesContinuation ? 1 : 0);
    this.parameterTypes = List.copyOf(type.getParameterTypes().subList(0, arguments));
    for (VariableElement parameter : method.getParameters().subList(0, arguments)) {
      names.add(parameter.getSimpleName().toString());
    }
    long primitives = parameterTypes.stream().filter(each -> each.getKind().isPrimitive()).count();
    this.packed = primitives > PRIMITIVE_SLOTS || parameterTypes.size() - primitives > REFERENCE_SLOTS;
    int references = 0;
    int widened = 0;
    for (TypeMirror parameterType : parameterTypes) {
      if (packed) {
        slots.add(null);
      } else if (parameterType.getKind().isPrimitive()) {
        slots.add(PRIMITIVES[widened++]);
      } else {
        slots.add(REFERENCES[references++]);
      }
    }
  }

  /** @return {@code userId, null, null, null, page, 0L}: what the call site passes after the delegate */
  CodeBlock callArguments() {
    String[] references = {"null", "null", "null", "null"};
    String[] primitives = {"0L", "0L"};
    List<CodeBlock> values = new ArrayList<>();
    if (packed) {
      List<CodeBlock> all = new ArrayList<>();
      names.forEach(name -> all.add(CodeBlock.of("$N", name)));
      values.add(CodeBlock.of("new $T[] {$L}", Object.class, CodeBlock.join(all, ", ")));
      for (int i = 1; i < REFERENCE_SLOTS; i++) {
        values.add(CodeBlock.of("null"));
      }
      values.add(CodeBlock.of("0L"));
      values.add(CodeBlock.of("0L"));
      return CodeBlock.join(values, ", ");
    }
    CodeBlock[] slotValues = new CodeBlock[REFERENCE_SLOTS + PRIMITIVE_SLOTS];
    for (int i = 0; i < REFERENCE_SLOTS; i++) {
      slotValues[i] = CodeBlock.of(references[i]);
    }
    for (int i = 0; i < PRIMITIVE_SLOTS; i++) {
      slotValues[REFERENCE_SLOTS + i] = CodeBlock.of(primitives[i]);
    }
    for (int i = 0; i < names.size(); i++) {
      String slot = slots.get(i);
      TypeMirror parameterType = parameterTypes.get(i);
      if (parameterType.getKind().isPrimitive()) {
        slotValues[REFERENCE_SLOTS + indexOf(PRIMITIVES, slot)] = widen(names.get(i), parameterType.getKind());
      } else {
        slotValues[indexOf(REFERENCES, slot)] = CodeBlock.of("$N", names.get(i));
      }
    }
    return CodeBlock.join(List.of(slotValues), ", ");
  }

  /** @return the parameters' names, in order */
  List<String> names() {
    return names;
  }

  /**
   * @param index a parameter's position
   * @param args the name of the {@code Arguments} variable, or null to read the slots from parameters
   *     named after them ({@code a} … {@code d}, {@code x}, {@code y}), as the invoker takes them
   * @param exactType cast to the parameter's own type (where its type variables are in scope) rather
   *     than to its erasure
   * @return the expression that reads the parameter back, of its type
   */
  CodeBlock read(int index, String args, boolean exactType) {
    TypeMirror parameterType = parameterTypes.get(index);
    if (packed) {
      TypeName boxed = parameterType.getKind().isPrimitive()
          ? TypeName.get(parameterType).box()
          : TypeName.get(exactType ? parameterType : types.erasure(parameterType));
      CodeBlock element = CodeBlock.of("(($T[]) $L)[$L]", Object.class, slot(args, "a"), index);
      return boxed.equals(ClassName.OBJECT) ? element : CodeBlock.of("($T) $L", boxed, element);
    }
    String slot = slots.get(index);
    if (!parameterType.getKind().isPrimitive()) {
      TypeName cast = TypeName.get(exactType ? parameterType : types.erasure(parameterType));
      return cast.equals(ClassName.OBJECT)
          ? slot(args, slot)
          : CodeBlock.of("($T) $L", cast, slot(args, slot));
    }
    CodeBlock value = slot(args, slot);
    return switch (parameterType.getKind()) {
      case LONG -> value;
      case BOOLEAN -> CodeBlock.of("$L != 0", value);
      case DOUBLE -> CodeBlock.of("$T.longBitsToDouble($L)", Double.class, value);
      case FLOAT -> CodeBlock.of("$T.intBitsToFloat((int) $L)", Float.class, value);
      default -> CodeBlock.of("($T) $L", TypeName.get(parameterType), value);
    };
  }

  /** @return the slot as the {@code Arguments} variable's accessor, or as the parameter of its name */
  private static CodeBlock slot(String args, String slot) {
    return args == null ? CodeBlock.of("$N", slot) : CodeBlock.of("$N.$N()", args, slot);
  }

  /** @return every parameter read back, in order, for the delegate's method; {@code args} as in {@link #read} */
  CodeBlock readAll(String args, boolean exactType) {
    List<CodeBlock> reads = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      reads.add(read(i, args, exactType));
    }
    return CodeBlock.join(reads, ", ");
  }

  private static CodeBlock widen(String name, TypeKind kind) {
    return switch (kind) {
      case BOOLEAN -> CodeBlock.of("$N ? 1L : 0L", name);
      case DOUBLE -> CodeBlock.of("$T.doubleToRawLongBits($N)", Double.class, name);
      case FLOAT -> CodeBlock.of("$T.floatToRawIntBits($N)", Float.class, name);
      default -> CodeBlock.of("$N", name);
    };
  }

  private static int indexOf(String[] slots, String slot) {
    for (int i = 0; i < slots.length; i++) {
      if (slots[i].equals(slot)) {
        return i;
      }
    }
    throw new IllegalArgumentException(slot);
  }
}
