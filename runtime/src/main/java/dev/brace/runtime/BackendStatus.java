package dev.brace.runtime;

import dev.brace.runtime.internal.event.Redactor;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Backend} knows of its store now, for health checks and metrics: every part of it
 * that cannot be reached (the whole store, or one node of a cluster), since when, and what the
 * instances whose state lives there do meanwhile.
 *
 * @param outages the parts that cannot be reached now, in no particular order; empty when every
 *     part can
 * @param fallback what an instance does while its part cannot be reached, as the {@code
 *     backend.unavailable} event names it: {@code local} (it decides with state in this JVM) or
 *     {@code refuse} (it refuses every call)
 */
public record BackendStatus(List<Outage> outages, String fallback) {

  /** What an instance decides with while its part of the store cannot be reached. */
  public static final String LOCAL = "local";

  /** Every call is refused while the instance's part of the store cannot be reached. */
  public static final String REFUSE = "refuse";

  /**
   * @param outages the parts that cannot be reached now
   * @param fallback {@link #LOCAL} or {@link #REFUSE} (another backend may name its own)
   * @throws NullPointerException when an argument is null
   */
  public BackendStatus {
    outages = List.copyOf(Objects.requireNonNull(outages, "outages"));
    Objects.requireNonNull(fallback, "fallback");
  }

  /** @return whether every part of the store can be reached now */
  public boolean available() {
    return outages.isEmpty();
  }

  /** @return whether instances decide with local state while their part cannot be reached */
  public boolean decidesLocally() {
    return fallback.equals(LOCAL);
  }

  /**
   * One part of the store that cannot be reached.
   *
   * @param node the part: a cluster node as {@code host:port}, or null for the whole store (a
   *     single server, or a cluster not reached at all)
   * @param since when the outage began, on the wall clock
   * @param cause what the store failed with ({@code io.lettuce.core.RedisConnectionException:
   *     Unable to connect…}), redacted as event attributes are (credentials in a URL, secret
   *     parameters); null when unknown
   */
  public record Outage(String node, Instant since, String cause) {
    /**
     * @param node the part, or null for the whole store
     * @param since when the outage began
     * @param cause what the store failed with, or null; redacted here
     * @throws NullPointerException when {@code since} is null
     */
    public Outage {
      Objects.requireNonNull(since, "since");
      cause = cause == null ? null : Redactor.redact(cause);
    }
  }
}
