package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.IndexedGreeterFactory.Greeter;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code Brace.wrap} finds a wrapper through the index brace-processor writes, before any name. */
class WrapperIndexTest {
  private final Registry registry = Registry.builder().build();

  @Test
  void wrapUsesTheFactoryTheIndexListsPastAStaleEntry() {
    Greeter greeter = Brace.wrap(Greeter.class, name -> "hello " + name, registry);

    assertEquals("HELLO ADA", greeter.greet("ada"));
    assertEquals(IndexedGreeterFactory.ShoutingGreeter.class, greeter.getClass());
  }

  @Test
  void theGeneratedWrapperIsTheOneTheIndexLists() {
    assertEquals(Optional.of(IndexedGreeterFactory.ShoutingGreeter.class), Brace.generatedWrapper(Greeter.class));
  }

  /** An interface the index does not list falls back to the name, with the error it always had. */
  @Test
  void anUnlistedInterfaceWithoutWrapperKeepsTheMissingWrapperError() {
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> Brace.wrap(Unlisted.class, () -> "x", registry));

    assertEquals("[brace:wrapper-missing] dev.brace.runtime.ResilientWrapperIndexTest_Unlisted was not generated for"
        + " dev.brace.runtime.WrapperIndexTest$Unlisted; put brace-processor on the annotation processor path (Maven:"
        + " maven-compiler-plugin annotationProcessorPaths; Gradle: annotationProcessor) and annotate the interface or"
        + " its methods", missing.getMessage());
    assertEquals(Optional.empty(), Brace.generatedWrapper(Unlisted.class));
  }

  interface Unlisted {
    String call();
  }
}
