package dev.brace.runtime.internal.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A fault the method cannot throw, or a class that cannot be made, is refused when the wrapper is
 * created and in a reconfiguration, naming the key that set it.
 */
class FaultTypeRefusalTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  /** Declares IOException, like {@code List<String> recommendations(String user) throws IOException}. */
  private static CallDefinition declaringIo() {
    return LambdaCalls.builder("Recs.list").with(RetryConfig.builder("Recs.list").maxAttempts(2))
        .throwsTypes(IOException.class).build();
  }

  private Registry registry(String fault) {
    Map<String, String> environment = new HashMap<>();
    environment.put("BRACE_CHAOS_ENABLED", "true");
    environment.put("BRACE_CHAOS_RECS_LIST_FAULT_RATE", "0.5");
    environment.put("BRACE_CHAOS_RECS_LIST_FAULT", fault);
    return Registry.builder().timeSource(clock).environment(environment).systemProperties(Map.of()).build();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "java.sql.SQLException | is a checked exception the method does not declare (it declares java.io.IOException)",
      "app.NoSuchFault | no class app.NoSuchFault can be loaded (through the thread's context class loader, the call's, then Brace's); in a native image, a class named only in configuration is there only when the image's reachability metadata registers it with its String constructor",
      "java.lang.String | is not an exception (not a Throwable)",
      "dev.brace.runtime.internal.chaos.FaultTypeRefusalTest$Abstract | is abstract",
      "dev.brace.runtime.internal.chaos.FaultTypeRefusalTest$NoMessage | has no public constructor taking a String",
      "dev.brace.runtime.internal.chaos.FaultTypeRefusalTest$Throwing | (String) threw java.lang.IllegalStateException: refused",
      "dev.brace.runtime.internal.chaos.FaultTypeRefusalTest$Hidden | is not public",
  })
  void aFaultThatCannotBeInjectedIsRefusedWhenTheWrapperIsCreated(String fault, String why) {
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry(fault).resolve(declaringIo()));
    assertEquals("[brace:chaos-fault]", refused.tag());
    assertTrue(refused.getMessage().startsWith("[brace:chaos-fault] BRACE_CHAOS_RECS_LIST_FAULT=" + fault
        + ": fault injection 'Recs.list' cannot fail Recs.list with it: "), refused.getMessage());
    assertTrue(refused.getMessage().contains(why), refused.getMessage());
  }

  @Test
  void aDeclaredExceptionOrASubclassOfOneOrAnUncheckedOneIsAccepted() throws Exception {
    for (String fault : new String[] {"java.io.IOException", "java.net.ConnectException", "java.lang.IllegalStateException",
        "dev.brace.runtime.InjectedFaultException"}) {
      ResilientCall call = registry(fault).resolve(declaringIo());
      assertEquals("Recs.list", call.callName());
    }
  }

  @Test
  void aStacksCallMayThrowAnyException() {
    Registry registry = registry("java.sql.SQLException");
    Stack<String> stack = Stack.<String>builder("Recs.list").retry(r -> r.maxAttempts(1)).build(registry);
    assertEquals("Recs.list", stack.name());
  }

  @Test
  void aReconfigurationThatNamesAnUnthrowableFaultChangesNothing() throws Throwable {
    Registry registry = registry("java.io.IOException");
    ResilientCall call = registry.resolve(declaringIo());
    Map<String, String> environment = new HashMap<>(Map.of("BRACE_CHAOS_ENABLED", "true",
        "BRACE_CHAOS_RECS_LIST_FAULT_RATE", "1", "BRACE_CHAOS_RECS_LIST_FAULT", "java.sql.SQLException"));
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.reconfigure(environment, Map.of()));
    assertEquals("[brace:reconfiguration-refused]", refused.tag());
    assertTrue(refused.getMessage().contains("[brace:chaos-fault] BRACE_CHAOS_RECS_LIST_FAULT=java.sql.SQLException"),
        refused.getMessage());
    assertEquals("0.5", registry.settings("chaos", "Recs.list").get("faultRate"), "nothing changed");
  }

  @Test
  void aProgrammaticFaultIsNamedAsCodeWroteIt() {
    Registry registry = Registry.builder().timeSource(clock).environment(Map.of("BRACE_CHAOS_ENABLED", "true"))
        .systemProperties(Map.of()).chaos("Recs.list", c -> c.faultRate(1).fault(SQLException.class)).build();
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.resolve(declaringIo()));
    assertTrue(refused.getMessage().startsWith(
        "[brace:chaos-fault] Registry.builder().chaos(\"Recs.list\", …) fault = java.sql.SQLException: "), refused.getMessage());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "BRACE_CHAOS_RECS_LIST_FAULT_RATE | 1.5 | BRACE_CHAOS_RECS_LIST_FAULT_RATE=1.5",
      "BRACE_CHAOS_RECS_LIST_LATENCY | -1s | BRACE_CHAOS_RECS_LIST_LATENCY=-1s",
      "BRACE_CHAOS_RECS_LIST_SEED | forty-two | BRACE_CHAOS_RECS_LIST_SEED=forty-two",
      "BRACE_CHAOS_RECS_LIST_FAULT | not a class | BRACE_CHAOS_RECS_LIST_FAULT=not a class",
  })
  void aValueThatDoesNotParseIsRefusedNamingTheKey(String key, String value, String named) {
    Map<String, String> environment = new HashMap<>(Map.of("BRACE_CHAOS_ENABLED", "true", "BRACE_CHAOS_RECS_LIST_FAULT_RATE", "0.1"));
    environment.put(key, value);
    Registry registry = Registry.builder().timeSource(clock).environment(environment).systemProperties(Map.of()).build();
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.resolve(declaringIo()));
    assertEquals("[brace:invalid-value]", refused.tag());
    assertTrue(refused.getMessage().contains(named), refused.getMessage());
  }

  /** What the generated code gives for each declared exception: found by name and made with no reflection. */
  @Test
  void aDeclaredExceptionTheGeneratedCodeMakesNeedsNoClassLoader() {
    AtomicInteger made = new AtomicInteger();
    Map<Class<? extends Throwable>, Function<String, ? extends Throwable>> factories = Map.of(IOException.class, message -> {
      made.incrementAndGet();
      return new IOException(message);
    });
    FaultType fault = FaultType.of("java.io.IOException", "BRACE_CHAOS_RECS_LIST_FAULT=java.io.IOException", "Recs.list",
        "Recs.list", List.of(IOException.class), factories);
    assertEquals(IOException.class, fault.type());
    assertEquals("injected", fault.make("injected").getMessage());
    assertEquals(1, made.get(), "made by the generated factory");

    ConfigurationException withoutFactory = assertThrows(ConfigurationException.class, () -> FaultType.of("java.io.IOException",
        "BRACE_CHAOS_RECS_LIST_FAULT=java.io.IOException", "Recs.list", "Recs.list", List.of(IOException.class), Map.of()));
    assertTrue(withoutFactory.getMessage().contains("no class java.io.IOException can be loaded"), withoutFactory.getMessage());
  }

  @Test
  void aLatencyWithoutItsRateIsRefusedRatherThanDoingNothing() {
    Registry registry = Registry.builder().timeSource(clock)
        .environment(Map.of("BRACE_CHAOS_ENABLED", "true", "BRACE_CHAOS_RECS_LIST_LATENCY", "2s"))
        .systemProperties(Map.of()).build();
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.resolve(declaringIo()));
    assertTrue(refused.getMessage().contains("latencyRate"), refused.getMessage());
  }

  /** Cannot be made: abstract. */
  public abstract static class Abstract extends RuntimeException {
    public Abstract(String message) {
      super(message);
    }
  }

  /** Cannot be made with a message. */
  public static class NoMessage extends RuntimeException {
    public NoMessage() {}
  }

  /** Its constructor throws. */
  public static class Throwing extends RuntimeException {
    public Throwing(String message) {
      throw new IllegalStateException("refused");
    }
  }

  /** Not public. */
  static class Hidden extends RuntimeException {
    Hidden(String message) {
      super(message);
    }
  }
}
