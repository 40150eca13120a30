package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.config.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A call's part in deadlines is configured like any call-scoped setting: by its name, from every
 * layer, shown by {@code describe()}, changed live, its keys known to the audit.
 */
class DeadlineConfigurationTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  private Registry registry(Map<String, String> environment, Map<String, String> properties) {
    return Registry.builder().timeSource(clock).environment(environment).systemProperties(properties).build();
  }

  /** @return whether the call, made under a deadline that has passed, was bounded by it */
  private static boolean inherits(Stack<String> stack, ManualTimeSource clock) {
    try (Deadline.Scope scope = Deadline.open(Duration.ofMillis(10), clock)) {
      clock.advance(Duration.ofMillis(20));
      stack.call(() -> "ran");
      return false;
    } catch (DeadlineExceededException refused) {
      return true;
    } catch (Exception unexpected) {
      throw new AssertionError(unexpected);
    }
  }

  @Test
  void describeShowsEveryCallsInheritSettingAndWhoSetIt() {
    Registry registry = registry(Map.of("BRACE_DEADLINE_ORDERS_PLACE_INHERIT", "false"), Map.of());
    Stack<String> place = Stack.<String>builder("Orders.place").retry(r -> r.maxAttempts(1)).build(registry);
    Stack<String> read = Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(registry);

    Description.Instance written = registry.describe(Kind.DEADLINE, "Orders.place");
    Description.Setting inherit = written.settings().get(0);
    assertEquals("inherit", inherit.attribute());
    assertEquals("false", inherit.value());
    assertEquals(new Description.Source(Description.Layer.ENVIRONMENT, "BRACE_DEADLINE_ORDERS_PLACE_INHERIT"), inherit.source());
    assertEquals(Description.Source.DEFAULT, registry.describe(Kind.DEADLINE, "Orders.read").settings().get(0).source());
    assertEquals(Map.of("inherit", "true"), registry.settings("deadline", "Orders.read"));
    assertTrue(registry.describe().toString().contains("deadline Orders.place"), registry.describe().toString());

    assertEquals(false, inherits(place, clock));
    assertEquals(true, inherits(read, clock));
  }

  @Test
  void everyLayerSetsItTheHighestWinning() {
    Registry programmatic = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of())
        .deadline("Orders.place", d -> d.inherit(false)).build();
    assertEquals(false, inherits(Stack.<String>builder("Orders.place").retry(r -> r.maxAttempts(1)).build(programmatic), clock));

    Registry property = registry(Map.of("BRACE_DEADLINE_ORDERS_PLACE_INHERIT", "false"),
        Map.of("brace.deadline.Orders.place.inherit", "true"));
    assertEquals(true, inherits(Stack.<String>builder("Orders.place").retry(r -> r.maxAttempts(1)).build(property), clock));
    assertEquals(Description.Layer.SYSTEM_PROPERTY,
        property.describe(Kind.DEADLINE, "Orders.place").settings().get(0).source().layer());
  }

  @Test
  void theGlobalSwitchAndTheCallsOwnSwitchTurnDeadlinesOff() {
    Registry off = registry(Map.of("BRACE_DEADLINE_ENABLED", "false"), Map.of());
    assertEquals(false, inherits(Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(off), clock));
    Registry property = registry(Map.of("BRACE_DEADLINE_ENABLED", "true"), Map.of("brace.deadline.enabled", "false"));
    assertEquals(false, inherits(Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(property), clock),
        "the property decides over the variable");
    Registry oneCall = registry(Map.of("BRACE_DEADLINE_ORDERS_READ_ENABLED", "false"), Map.of());
    assertEquals(false, inherits(Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(oneCall), clock));
  }

  @Test
  void aValueThatIsNotABooleanIsRefusedNamingTheKey() {
    Registry badSwitch = registry(Map.of("BRACE_DEADLINE_ENABLED", "sometimes"), Map.of());
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(badSwitch));
    assertTrue(refused.getMessage().contains("BRACE_DEADLINE_ENABLED=sometimes"), refused.getMessage());

    Registry badInherit = registry(Map.of("BRACE_DEADLINE_ORDERS_READ_INHERIT", "no"), Map.of());
    ConfigurationException badValue = assertThrows(ConfigurationException.class,
        () -> Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(badInherit));
    assertTrue(badValue.getMessage().startsWith("[brace:invalid-value] BRACE_DEADLINE_ORDERS_READ_INHERIT=no"), badValue.getMessage());
    assertTrue(badValue.getMessage().contains("true or false"), badValue.getMessage());
  }

  @Test
  void theAuditKnowsTheDeadlineKeysAndCatchesTheirTypos() {
    assertDoesNotThrow(() -> Registry.builder().environment(Map.of("BRACE_DEADLINE_ENABLED", "false"))
        .systemProperties(Map.of("brace.deadline.enabled", "true")).strictConfiguration().build());
    ConfigurationException typo = assertThrows(ConfigurationException.class,
        () -> Registry.builder().environment(Map.of("BRACE_DEADLNE_ENABLED", "false")).systemProperties(Map.of())
            .strictConfiguration().build());
    assertTrue(typo.getMessage().contains("did you mean"), typo.getMessage());
    Registry.builder().timeSource(clock).environment(Map.of("BRACE_DEADLINE_ORDERS_PLACE_INHERIT", "false"))
        .systemProperties(Map.of()).deadline("Orders.place", d -> {}).strictConfiguration().build();
    ConfigurationException property = assertThrows(ConfigurationException.class, () -> Registry.builder().timeSource(clock)
        .environment(Map.of()).systemProperties(Map.of("brace.deadline.Orders.place.inherrit", "false"))
        .deadline("Orders.place", d -> {}).strictConfiguration().build());
    assertTrue(property.getMessage().contains("did you mean inherit?"), property.getMessage());
  }

  @Test
  void aReconfigurationChangesInheritLiveAndReportsIt() {
    Registry registry = registry(Map.of(), Map.of());
    Stack<String> place = Stack.<String>builder("Orders.place").retry(r -> r.maxAttempts(1)).build(registry);
    List<Event> changed = new CopyOnWriteArrayList<>();
    registry.subscribe(event -> {
      if (event.kind().equals("config.changed")) {
        changed.add(event);
      }
    });
    assertEquals(true, inherits(place, clock));

    registry.reconfigure(Map.of("BRACE_DEADLINE_ORDERS_PLACE_INHERIT", "false"), Map.of());

    assertEquals(false, inherits(place, clock));
    Event event = changed.get(0);
    assertEquals("Orders.place", event.instance());
    assertEquals(Map.of("kind", "deadline", "property", "inherit", "from", "true", "to", "false"),
        Map.of("kind", event.attributes().get("kind"), "property", event.attributes().get("property"),
            "from", event.attributes().get("from"), "to", event.attributes().get("to")));

    registry.reconfigure(Map.of("BRACE_DEADLINE_ENABLED", "false"), Map.of());
    assertEquals(false, inherits(Stack.<String>builder("Orders.read").retry(r -> r.maxAttempts(1)).build(registry), clock));
    assertThrows(ConfigurationException.class, () -> registry.reconfigure(Map.of("BRACE_DEADLINE_ENABLED", "maybe"), Map.of()));
  }
}
