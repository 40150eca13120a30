package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.support.LambdaCalls;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The call sequence's builder, which the resolver fills one policy at a time. */
class CallSequenceBuilderTest {

  /** Each setter answers its own builder, as its Javadoc says, so that a chain of them reaches {@code build()}. */
  @Test
  void everyPolicySetterReturnsItsBuilderForTheNextStep() {
    ManualTimeSource clock = new ManualTimeSource();
    CallPolicies.Builder builder = CallPolicies.builder(
        LambdaCalls.builder("X.m").build(), clock, new EventBus(Clock.systemUTC()), clock::scheduler);

    assertAll(
        () -> assertSame(builder, builder.retry(null), "retry"),
        () -> assertSame(builder, builder.stale(null), "stale"),
        () -> assertSame(builder, builder.fallback(null), "fallback"),
        () -> assertSame(builder, builder.hedge(null, null), "hedge"));
  }
}
