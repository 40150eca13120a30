package dev.brace.reactor;

import dev.brace.Retry;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A registry on manual time, the events it emits, and calls wired as a generated wrapper wires
 * them: the definition's invoker calls the attempt each call hands over, its fallback invoker the
 * fallback, which answers with a publisher.
 */
final class ReactiveFixture {
  static final String CALL = "Items.item";

  final ManualTimeSource time = new ManualTimeSource();
  final Registry registry;
  final List<Event> events = new CopyOnWriteArrayList<>();

  ReactiveFixture() {
    this(settings -> settings);
  }

  ReactiveFixture(UnaryOperator<Registry.Builder> settings) {
    registry = settings.apply(Registry.builder().timeSource(time)).build();
    registry.subscribe(events::add);
  }

  /** What one call hands over as its delegate: the attempt, and the fallback's answer. */
  record Target(Supplier<?> attempt, Function<Throwable, ?> fallback) {}

  ResilientCall resolve(UnaryOperator<CallDefinition.Builder> patterns) {
    return registry.resolve(patterns.apply(wired()).build());
  }

  /** @return a definition of {@link #CALL} with these patterns, wired to the targets calls hand over */
  static CallDefinition definition(dev.brace.runtime.config.ConfigBuilder<?>... patterns) {
    CallDefinition.Builder definition = wired();
    for (dev.brace.runtime.config.ConfigBuilder<?> pattern : patterns) {
      definition.with(pattern);
    }
    return definition.build();
  }

  private static CallDefinition.Builder wired() {
    return CallDefinition.builder(CALL)
        .invokes((method, target, args) -> ((Target) target).attempt().get(), 0)
        .fallback((method, target, args, failure) -> ((Target) target).fallback().apply(failure));
  }

  static <T> Mono<T> mono(ResilientCall call, Supplier<? extends Mono<T>> attempt) {
    return mono(call, attempt, failure -> Mono.error(new AssertionError("no fallback expected", failure)));
  }

  static <T> Mono<T> mono(ResilientCall call, Supplier<? extends Mono<T>> attempt, Function<Throwable, ? extends Mono<T>> fallback) {
    return ReactorCalls.mono(call, new Target(attempt, fallback), null, null, null, null, 0L, 0L);
  }

  static <T> Flux<T> flux(ResilientCall call, Supplier<? extends Flux<T>> attempt) {
    return flux(call, attempt, failure -> Flux.error(new AssertionError("no fallback expected", failure)));
  }

  static <T> Flux<T> flux(ResilientCall call, Supplier<? extends Flux<T>> attempt, Function<Throwable, ?> fallback) {
    return ReactorCalls.flux(call, new Target(attempt, fallback), null, null, null, null, 0L, 0L);
  }

  /** Three attempts, 100 ms apart (multiplier 1), no jitter. */
  static RetryConfig.Builder retry() {
    return RetryConfig.builder(CALL).maxAttempts(3).delay("100ms").multiplier(1).jitter(Retry.Jitter.NONE);
  }

  void advance(long millis) {
    time.advance(Duration.ofMillis(millis));
  }

  long eventCount(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }
}
