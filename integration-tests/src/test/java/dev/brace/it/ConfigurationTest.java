package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Configuration end to end: configuration by name changes what a generated wrapper does. */
class ConfigurationTest {

  private static Clients.Repository<String> repository(AtomicInteger calls) {
    return new Clients.Repository<>() {
      @Override
      public String find(long id) throws IOException {
        calls.incrementAndGet();
        throw new IOException("down");
      }

      @Override
      public <R extends Number> R convert(String value, Class<R> type) {
        throw new UnsupportedOperationException("not used here");
      }

      @Override
      public int sum(int... values) {
        return 0;
      }

      @Override
      public String[] split(String text, char separator) {
        return new String[0];
      }

      @Override
      public void store(String value) {}

      @Override
      public String clash(String delegate, String registry, String e, String result, String attempt, String guard,
          String failure, String permit, String run, String started) {
        return "";
      }

      @Override
      public String overloaded(String a) {
        return a;
      }

      @Override
      public String overloaded(String a, int b) {
        return a;
      }
    };
  }

  private static Registry registry(Map<String, String> environment, Map<String, String> properties) {
    return Registry.builder().timeSource(new ManualTimeSource()).environment(environment).systemProperties(properties).build();
  }

  @Test
  void anEnvironmentVariableChangesTheNumberOfAttempts() {
    AtomicInteger calls = new AtomicInteger();
    Clients.Repository<String> wrapped = ResilientClients_Repository.wrap(repository(calls),
        registry(Map.of("BRACE_RETRY_CLIENTS_REPOSITORY_FIND_MAX_ATTEMPTS", "5"), Map.of()));

    assertThrows(IOException.class, () -> wrapped.find(1));

    assertEquals(5, calls.get(), "the annotation says 2");
  }

  @Test
  void aSystemPropertyWinsOverTheEnvironment() {
    AtomicInteger calls = new AtomicInteger();
    Clients.Repository<String> wrapped = ResilientClients_Repository.wrap(repository(calls),
        registry(Map.of("BRACE_RETRY_CLIENTS_REPOSITORY_FIND_MAX_ATTEMPTS", "5"),
            Map.of("brace.retry.Clients.Repository.find.max-attempts", "4")));

    assertThrows(IOException.class, () -> wrapped.find(1));

    assertEquals(4, calls.get());
  }

  @Test
  void aBadValueFailsWhenTheWrapperIsCreated() {
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> ResilientClients_Repository.wrap(
        repository(new AtomicInteger()), registry(Map.of("BRACE_RETRY_CLIENTS_REPOSITORY_FIND_DELAY", "soon"), Map.of())));

    assertTrue(refused.getMessage().startsWith("[brace:invalid-value] BRACE_RETRY_CLIENTS_REPOSITORY_FIND_DELAY=soon: "), refused.getMessage());
    assertEquals("[brace:invalid-value]", refused.tag());
  }

  @Test
  void braceEnabledFalseMakesEveryWrapperAPassThroughFallbacksIncluded() throws IOException {
    AtomicInteger calls = new AtomicInteger();
    Clients.Hanging hanging = ResilientClients_Hanging.wrap(id -> {
      calls.incrementAndGet();
      throw new IOException("down");
    }, registry(Map.of("BRACE_ENABLED", "false"), Map.of()));

    for (int i = 0; i < 5; i++) {
      assertThrows(IOException.class, () -> hanging.fetch("x"), "no breaker: never CircuitOpenException");
    }
    assertEquals(5, calls.get());
  }

  @Test
  void oneInstanceCanBeSwitchedOff() {
    AtomicInteger calls = new AtomicInteger();
    Clients.Hanging hanging = ResilientClients_Hanging.wrap(id -> {
      calls.incrementAndGet();
      throw new IOException("down");
    }, registry(Map.of("BRACE_CIRCUITBREAKER_HANGING_ENABLED", "false"), Map.of()));

    for (int i = 0; i < 3; i++) {
      assertThrows(IOException.class, () -> hanging.fetch("x"));
    }
    assertEquals(3, calls.get());
  }

  @Test
  void aTypoAgainstTheGeneratedManifestIsAnErrorInStrictMode() {
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> Registry.builder()
        .environment(Map.of("BRACE_CIRCUITBREAKER_HANGIN_FAILURE_THRESHOLD", "3"))
        .systemProperties(Map.of())
        .strictConfiguration()
        .build());

    assertTrue(refused.getMessage().contains("no circuit breaker HANGIN; did you mean HANGING?"), refused.getMessage());
    Registry.builder().environment(Map.of("BRACE_CIRCUITBREAKER_HANGING_FAILURE_THRESHOLD", "3"))
        .systemProperties(Map.of()).strictConfiguration().build();
  }

  @Test
  void theBreakerThresholdComesFromConfiguration() {
    Clients.Hanging hanging = ResilientClients_Hanging.wrap(id -> {
      throw new IOException("down");
    }, registry(Map.of("BRACE_CIRCUITBREAKER_HANGING_FAILURE_THRESHOLD", "4"), Map.of()));

    List<Class<?>> outcomes = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      try {
        hanging.fetch("x");
      } catch (Exception thrown) {
        outcomes.add(thrown.getClass());
      }
    }

    assertEquals(List.of(IOException.class, IOException.class, IOException.class, IOException.class,
        CircuitOpenException.class), outcomes);
  }
}
