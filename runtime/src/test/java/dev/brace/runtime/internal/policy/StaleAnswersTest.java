package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Event;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The remembered results of one call, driven directly on manual time. */
class StaleAnswersTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final RecordedEvents events = new RecordedEvents();

  private StaleAnswers answers(StaleIfErrorConfig.Builder config) {
    return new StaleAnswers(config.build(), "quote", clock, events.bus());
  }

  @Test
  void aResultAnswersWithoutACallOnlyWhileItIsYoungerThanFresh() {
    StaleAnswers answers = answers(StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(10)).fresh(Duration.ofMillis(100)));
    assertTrue(answers.singleFlight(), "a fresh window makes one call per key reach the dependency");
    answers.remember("k", "v1", null);
    clock.advance(Duration.ofMillis(99));
    assertEquals("v1", answers.fresh("k"));
    clock.advance(Duration.ofMillis(1));
    assertSame(StaleAnswers.NONE, answers.fresh("k"), "a result exactly fresh old needs a new call");
  }

  @Test
  void withoutAFreshWindowEveryCallReachesTheDependency() {
    StaleAnswers answers = answers(StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(10)).fresh(Duration.ZERO));
    assertFalse(answers.singleFlight());
    answers.remember("k", "v1", null);
    assertSame(StaleAnswers.NONE, answers.fresh("k"));
  }

  @Test
  void aServedStaleResultReportsItsAgeInMilliseconds() {
    StaleAnswers answers = answers(StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(10)));
    answers.remember("k", "v1", null);
    clock.advance(Duration.ofMillis(2500));
    assertEquals("v1", answers.answer("k", new IOException("down"), null, false));
    Event served = events.last();
    assertTrue(served.is(EventKind.STALE_SERVED));
    assertEquals(2500L, ((Number) served.attributes().get("age_ms")).longValue());
    assertEquals("down", served.attributes().get("message"));
  }

  @Test
  void aFollowerGetsTheLeadersResultOrCallsOnItsOwnWhenTheLeaderGaveUp() throws Throwable {
    StaleAnswers answers = answers(StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(10)).fresh(Duration.ofSeconds(1)));
    StaleAnswers.Flight flight = answers.lead("k");
    CompletableFuture<Object> outcome = answers.following("k");
    answers.remember("k", "from the leader", flight);
    assertEquals("from the leader", answers.await(outcome));

    StaleAnswers.Flight second = answers.lead("j");
    CompletableFuture<Object> abandoned = answers.following("j");
    answers.abandon(second);
    assertSame(StaleAnswers.NONE, answers.await(abandoned));
  }

  @Test
  void sizeCountsOnlyTheKeysStillRemembered() {
    StaleAnswers answers = answers(StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(1)));
    answers.remember("a", 1, null);
    answers.remember("b", 2, null);
    assertEquals(2, answers.size());
    clock.advance(Duration.ofMillis(1001));
    assertEquals(0, answers.size(), "both expired once older than maxAge");
  }

  @Test
  void newSettingsCarryTheResultsAndAreTheOnesInForce() {
    StaleIfErrorConfig first = StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(10)).build();
    StaleAnswers answers = new StaleAnswers(first, "quote", clock, events.bus());
    assertSame(first, answers.config());
    assertSame(answers, answers.carriedTo(StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(10)).build()));
    StaleIfErrorConfig next = StaleIfErrorConfig.builder("s").maxAge(Duration.ofSeconds(20)).build();
    answers.remember("k", "v1", null);
    StaleAnswers carried = answers.carriedTo(next);
    assertNotSame(answers, carried);
    assertSame(next, carried.config());
    clock.advance(Duration.ofSeconds(15));
    assertEquals("v1", carried.answer("k", new IOException("down"), null, false), "15 s old is within the new maxAge");
  }
}
