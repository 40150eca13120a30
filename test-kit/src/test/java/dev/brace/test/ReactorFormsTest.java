package dev.brace.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The asynchronous forms: their backoffs are tasks on the registry's manual scheduler, so nothing
 * happens until the test advances time, and then everything that falls due runs, in order.
 */
@BraceTest
class ReactorFormsTest {

  /** Fails the first {@code failures} subscriptions, then answers. */
  static final class FailingFirst implements ReactiveCatalog {
    private final AtomicInteger failuresLeft;

    FailingFirst(int failures) {
      this.failuresLeft = new AtomicInteger(failures);
    }

    @Override
    public Mono<String> item(String id) {
      return Mono.defer(() -> failuresLeft.getAndDecrement() > 0 ? Mono.error(new IOException("down")) : Mono.just("item " + id));
    }

    @Override
    public Flux<String> items() {
      return Flux.defer(() -> failuresLeft.getAndDecrement() > 0 ? Flux.error(new IOException("down")) : Flux.just("a", "b"));
    }
  }

  @Test
  void aCompletableFutureRetriesAsTheTestAdvancesTime(BraceTestKit brace) throws Exception {
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(3));

    CompletableFuture<String> item = catalog.itemLater("42");
    assertFalse(item.isDone(), "the first backoff waits for the test's time");
    assertEquals("under way", brace.call("Catalog.itemLater").outcome());

    brace.advance(Duration.ofMillis(200));

    assertEquals(Catalog.UNKNOWN, item.getNow("not done"));
    brace.call("Catalog.itemLater").retried(2).waited(Duration.ofMillis(200)).thenFellBack();
  }

  @Test
  void aMonoRetriesThenFallsBack(BraceTestKit brace) {
    ReactiveCatalog catalog = brace.wrap(ReactiveCatalog.class, new FailingFirst(3));

    StepVerifier.create(catalog.item("42"))
        .then(() -> brace.advance(Duration.ofMillis(200)))
        .expectNext(Catalog.UNKNOWN)
        .verifyComplete();

    brace.call("ReactiveCatalog.item").retried(2).thenFellBack();
  }

  @Test
  void aFluxRetriesThenAnswers(BraceTestKit brace) {
    ReactiveCatalog catalog = brace.wrap(ReactiveCatalog.class, new FailingFirst(1));

    StepVerifier.create(catalog.items())
        .then(() -> brace.advance(Duration.ofMillis(100)))
        .expectNext("a", "b")
        .verifyComplete();

    brace.call("ReactiveCatalog.items").retried(1).waited(Duration.ofMillis(100)).thenSucceeded();
  }

  @Test
  void reactorVirtualTimeAndTheKitsTimeTogether(BraceTestKit brace) {
    ReactiveCatalog catalog = brace.wrap(ReactiveCatalog.class, new FailingFirst(1));

    // Reactor's own operators (delayElement) run on Reactor's virtual time; Brace's backoff on the kit's.
    StepVerifier.withVirtualTime(() -> catalog.item("42").delayElement(Duration.ofSeconds(5)))
        .expectSubscription()
        .then(() -> brace.advance(Duration.ofMillis(100)))
        .expectNoEvent(Duration.ofSeconds(4))
        .thenAwait(Duration.ofSeconds(1))
        .expectNext("item 42")
        .verifyComplete();

    brace.call("ReactiveCatalog.item").retried(1).thenSucceeded();
  }
}
