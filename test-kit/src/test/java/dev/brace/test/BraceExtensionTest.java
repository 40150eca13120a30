package dev.brace.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** What the extension promises around each test: a fresh registry, and controls undone, pass or fail. */
class BraceExtensionTest {
  /** The registries the fixtures' tests were given, in the order the tests ran. */
  static final List<Registry> GIVEN = new ArrayList<>();

  /** Run only through {@link EngineTestKit} below: its second test fails on purpose. */
  @BraceTest
  @TestMethodOrder(MethodOrderer.MethodName.class)
  static class ForcesThenFails {
    @Test
    void a(BraceTestKit brace) {
      brace.wrap(Catalog.class, new ScriptedFake());
      GIVEN.add(brace.registry());
    }

    @Test
    void b(BraceTestKit brace) {
      brace.wrap(Catalog.class, new ScriptedFake());
      GIVEN.add(brace.registry());
      brace.forceOpen("catalog-api");
      throw new AssertionError("this test fails after forcing the breaker open");
    }
  }

  @Test
  void eachTestGetsAFreshRegistryAndAFailedTestsControlsAreUndone() {
    GIVEN.clear();
    Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(ForcesThenFails.class)).execute().testEvents();

    tests.assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
    assertEquals(2, GIVEN.size());
    assertNotSame(GIVEN.get(0), GIVEN.get(1));
    assertEquals(CircuitState.CLOSED, GIVEN.get(1).circuitBreaker("catalog-api").state(),
        "the breaker forced open by the failed test was reset after it");
  }

  /** Settings given as properties of the annotation reach the registry. */
  @BraceTest(properties = "brace.circuitbreaker.catalog-api.reset-timeout = 5s")
  static class WithProperties {
    @Test
    void probesAfterFiveSeconds(BraceTestKit brace) throws IOException {
      Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(5));
      for (int i = 0; i < 5; i++) {
        try {
          catalog.price("42");
        } catch (IOException expected) {
          // opening the breaker
        }
      }
      brace.advance(Duration.ofSeconds(5));
      catalog.price("42");
      brace.breaker("catalog-api").isClosed();
    }

    @Nested
    class Inside {
      @Test
      void readsTheOuterClassesProperties(BraceTestKit brace) {
        brace.wrap(Catalog.class, new ScriptedFake());
        assertEquals("5s", brace.registry().settings("circuitbreaker", "catalog-api").get("resetTimeout"));
      }
    }
  }

  @BraceTest(properties = "brace.circuitbreaker.catalog-api.reset-timeout")
  static class WithAMalformedProperty {
    @Test
    void neverRuns(BraceTestKit brace) {}
  }

  @Test
  void propertiesConfigureTheRegistryAndAMalformedOneIsNamed() {
    EngineTestKit.engine("junit-jupiter").selectors(selectClass(WithProperties.class)).execute().testEvents()
        .assertStatistics(stats -> stats.succeeded(2).failed(0));

    Events malformed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(WithAMalformedProperty.class)).execute()
        .testEvents();
    malformed.assertStatistics(stats -> stats.failed(1));
    String message = malformed.failed().stream().findFirst().orElseThrow()
        .getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
    assertTrue(message.contains("@BraceTest(properties = \"brace.circuitbreaker.catalog-api.reset-timeout\")"), message);
  }

  /** Programmatic settings, for every test of the class. */
  static class WithSettings {
    @RegisterExtension
    static BraceExtension brace = BraceExtension.withSettings(
        registry -> registry.circuitBreaker("catalog-api", breaker -> breaker.resetTimeout(Duration.ofSeconds(2))));

    @Test
    void probesAfterTwoSeconds(BraceTestKit brace) throws IOException {
      Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(5));
      for (int i = 0; i < 5; i++) {
        try {
          catalog.price("42");
        } catch (IOException expected) {
          // opening the breaker
        }
      }
      brace.advance(Duration.ofSeconds(2));
      catalog.price("42");
      brace.breaker("catalog-api").isClosed();
    }
  }

  @Test
  void programmaticSettingsConfigureTheRegistry() {
    EngineTestKit.engine("junit-jupiter").selectors(selectClass(WithSettings.class)).execute().testEvents()
        .assertStatistics(stats -> stats.succeeded(1).failed(0));
  }
}
