package p;

import java.util.function.Predicate;

public class NotNull implements Predicate<Object> {
  @Override
  public boolean test(Object value) {
    return value == null;
  }
}
