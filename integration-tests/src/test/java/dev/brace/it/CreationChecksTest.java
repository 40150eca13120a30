package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * What configuration can get wrong is caught when the wrapper or stack is created, naming what
 * is at fault, never at call time, and a conflict depends on what two sites mean, not on which
 * was created first (issue 14, items 2, 4, 5 and 6).
 */
class CreationChecksTest {

  private static Registry registry(Consumer<Registry.Builder> settings) {
    Registry.Builder builder = Registry.builder().timeSource(new ManualTimeSource())
        .environment(Map.of()).systemProperties(Map.of());
    settings.accept(builder);
    return builder.build();
  }

  private static final PipelineClients.DefaultBreaker FAILING = () -> {
    throw new IOException("down");
  };

  private static Stack<String> stack(Registry registry, Consumer<dev.brace.runtime.config.CircuitBreakerConfig.Builder> breaker) {
    return Stack.<String>builder("Other.call").circuitBreaker("shared-defaults", breaker).build(registry);
  }

  @Test
  void aStackWithDefaultBreakerSettingsAndAWrapperWithDefaultsShareTheBreakerWhicheverComesFirst() throws Exception {
    Registry stackFirst = registry(b -> {});
    Stack<String> stack = stack(stackFirst, b -> {});
    PipelineClients.DefaultBreaker wrapper =
        assertDoesNotThrow(() -> ResilientPipelineClients_DefaultBreaker.wrap(FAILING, stackFirst),
            "both sites mean failureThreshold 5 and every other default");
    for (int i = 0; i < 5; i++) {
      assertThrows(IOException.class, () -> stack.call(() -> {
        throw new IOException("down");
      }));
    }
    assertThrows(CircuitOpenException.class, wrapper::call, "one breaker: the stack's failures opened it for the wrapper");

    Registry wrapperFirst = registry(b -> {});
    ResilientPipelineClients_DefaultBreaker.wrap(FAILING, wrapperFirst);
    assertDoesNotThrow(() -> stack(wrapperFirst, b -> {}));
  }

  @Test
  void sitesWhoseEffectiveBreakerSettingsDifferConflictWhicheverComesFirst() {
    Registry stackFirst = registry(b -> {});
    stack(stackFirst, b -> b.failureThreshold(3));
    ConfigurationException late =
        assertThrows(ConfigurationException.class, () -> ResilientPipelineClients_DefaultBreaker.wrap(FAILING, stackFirst));
    assertTrue(late.getMessage().contains("failureThreshold"), late.getMessage());

    Registry wrapperFirst = registry(b -> {});
    ResilientPipelineClients_DefaultBreaker.wrap(FAILING, wrapperFirst);
    ConfigurationException early = assertThrows(ConfigurationException.class, () -> stack(wrapperFirst, b -> b.failureThreshold(3)));
    assertTrue(early.getMessage().contains("failureThreshold"), early.getMessage());
  }

  @Test
  void aCountWindowShorterThanMinimumCallsIsRefusedFromProgrammaticSettings() {
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> {
      Registry registry = registry(b -> b.circuitBreaker("narrow", c -> c.windowCalls(10)));
      ResilientPipelineClients_Narrow.wrap(() -> "ok", registry);
    }, "failureRate 0.5 over the last 10 calls with minimumCalls 20 can never open");
    assertTrue(refused.getMessage().contains("windowCalls") && refused.getMessage().contains("minimumCalls"), refused.getMessage());
  }

  @Test
  void aCountWindowShorterThanMinimumCallsIsRefusedFromTheEnvironment() {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource()).systemProperties(Map.of())
        .environment(Map.of("BRACE_CIRCUITBREAKER_NARROW_WINDOW_CALLS", "10")).build();
    ConfigurationException refused =
        assertThrows(ConfigurationException.class, () -> ResilientPipelineClients_Narrow.wrap(() -> "ok", registry));
    assertTrue(refused.getMessage().contains("windowCalls") && refused.getMessage().contains("minimumCalls"), refused.getMessage());
  }

  @Test
  void aFallbackFilterWiderThanTheFallbackMethodsParameterFailsWhenTheWrapperIsCreated() {
    Registry registry = registry(b -> b.fallback("PipelineClients.Widened.call", f -> f.on(Exception.class)));

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> ResilientPipelineClients_Widened.wrap(() -> {
          throw new IllegalStateException("not an IOException");
        }, registry));

    assertTrue(refused.getMessage().contains("offline") && refused.getMessage().contains("IOException"),
        "names the method and the type it takes: " + refused.getMessage());
  }

  @Test
  void aBreakerKeyedByConfigurationFailsFastAtASiteThatGivesNoKey() {
    Registry registry = registry(b -> b.circuitBreaker("keyed-by-config", c -> c.key("{id}")));

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> ResilientPipelineClients_UnkeyedBreaker.wrap(id -> "ok", registry));

    assertTrue(refused.getMessage().contains("keyed-by-config") && refused.getMessage().contains("PipelineClients.UnkeyedBreaker.call"),
        "names the breaker and the site: " + refused.getMessage());
  }

  @Test
  void aLimiterKeyedByConfigurationFailsFastAtASiteThatGivesNoKey() {
    Registry registry = registry(b -> b.rateLimit("limited-by-config", l -> l.key("{id}")));

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> ResilientPipelineClients_UnkeyedLimiter.wrap(id -> "ok", registry));

    assertTrue(refused.getMessage().contains("limited-by-config") && refused.getMessage().contains("PipelineClients.UnkeyedLimiter.call"),
        "names the limiter and the site: " + refused.getMessage());
  }

  @Test
  void aKeyedBreakerStillServesAStackThatGivesItsKey() throws Exception {
    // The counterpart of the check above: configuration may make a Stack's breaker keyed.
    Registry registry = registry(b -> b.circuitBreaker("per-tenant", c -> c.key("{tenant}").failureThreshold(1)));
    Stack<String> stack = Stack.<String>builder("Tenants.call").circuitBreaker("per-tenant", c -> {}).build(registry);

    assertThrows(IOException.class, () -> stack.call("a", () -> {
      throw new IOException("down");
    }));

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("per-tenant[a]").state());
    assertEquals("ok", stack.call("b", () -> "ok"));
  }
}
