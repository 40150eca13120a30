package dev.brace.examples.incident;

import dev.brace.examples.RecsClient;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One pass through the incident: concurrent callers drive a {@link RecsClient} against their own
 * {@link RecsService}. It records what each caller saw and, with Brace, every event of the
 * registry; nothing else is counted.
 */
public final class IncidentRun {

  /** What a caller got. */
  public enum Outcome {
    /** recommendations from the service */
    ANSWERED,
    /** this user's earlier recommendations, remembered and served by {@code @StaleIfError} */
    STALE,
    /** the editors' picks, served by the fallback */
    FALLBACK,
    /** an exception */
    ERROR
  }

  /**
   * One call as its caller saw it; {@code phase} is the phase it started in; {@code answeredBefore}
   * whether the service had answered this user in this run before the call started.
   */
  public record Call(long startMillis, long latencyMicros, Phase phase, Outcome outcome, String error,
      boolean answeredBefore) {
    /** @return when the caller had its answer, since the incident started */
    public long endMillis() {
      return startMillis + latencyMicros / 1_000;
    }
  }

  /** One registry event, its time relative to the start of the run. */
  public record RecordedEvent(long atMillis, String kind, String instance, Map<String, Object> attributes) {}

  private final String title;
  private final RecsClient client;
  private final RecsService service;
  private final Pacing pacing;
  private final Registry registry;
  private final String breakerName;
  private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<RecordedEvent> events = new ConcurrentLinkedQueue<>();
  private final AtomicLong userSequence = new AtomicLong();
  private final AtomicLong visitSequence = new AtomicLong();
  /** Every list a caller was handed, by identity, to tell a remembered answer from a new one. */
  /** The users the service answered in this run. */
  private final Set<String> answeredUsers = ConcurrentHashMap.newKeySet();
  private final Set<List<String>> handedOut = Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));
  private final List<Thread> callers = new ArrayList<>();
  private volatile Instant startInstant;

  private IncidentRun(String title, RecsClient client, RecsService service, Pacing pacing,
      Registry registry, String breakerName) {
    this.title = Objects.requireNonNull(title, "title");
    this.client = Objects.requireNonNull(client, "client");
    this.service = Objects.requireNonNull(service, "service");
    this.pacing = Objects.requireNonNull(pacing, "pacing");
    this.registry = registry;
    this.breakerName = breakerName;
  }

  /**
   * @param title how the report names this run
   * @param client the plain client
   * @param service the service it calls
   * @param pacing the incident's pacing, shared with the service
   * @return a run with no registry: nothing but what callers and the service saw
   */
  public static IncidentRun withoutBrace(String title, RecsClient client, RecsService service, Pacing pacing) {
    return new IncidentRun(title, client, service, pacing, null, null);
  }

  /**
   * @param title how the report names this run
   * @param client the generated wrapper, created with {@code registry}
   * @param service the service it calls
   * @param pacing the incident's pacing, shared with the service
   * @param registry the wrapper's registry; its events are recorded
   * @param breakerName the circuit breaker whose state the live line shows
   * @return a run that records the registry's events
   */
  public static IncidentRun withBrace(String title, RecsClient client, RecsService service, Pacing pacing,
      Registry registry, String breakerName) {
    IncidentRun run = new IncidentRun(title, client, service, pacing, Objects.requireNonNull(registry, "registry"),
        Objects.requireNonNull(breakerName, "breakerName"));
    registry.subscribe(run::record);
    return run;
  }

  private void record(Event event) {
    Instant start = startInstant;
    if (start != null) {
      long at = Duration.between(start, event.timestamp()).toMillis();
      events.add(new RecordedEvent(at, event.kind(), event.instance(), event.attributes()));
    }
  }

  /**
   * Starts the callers, once the pacing has begun the incident; they call when the pacing lets them
   * and stop when it says the incident is over.
   *
   * @param callerCount how many callers call at once
   */
  public void start(int callerCount) {
    this.startInstant = pacing.beganAt();
    for (int i = 0; i < callerCount; i++) {
      int index = i;
      Thread caller = new Thread(() -> callWhileLet(index), title + " caller " + (i + 1));
      caller.setDaemon(true);
      callers.add(caller);
      caller.start();
    }
  }

  private void callWhileLet(int callerIndex) {
    long visits = 0;
    try {
      while (pacing.nextCall(visits == 0, withBrace())) {
        try {
          call(callerIndex, visits++);
        } finally {
          pacing.callEnded();
        }
      }
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();  // ends the caller
    }
  }

  private void call(int callerIndex, long visit) {
    Pacing.Moment start = pacing.now().orElseThrow();
    Phase phase = start.phase();
    String user = nextUser(callerIndex, visit);
    // Each returning user is served by one caller only, so nothing answers them between this
    // look and the call.
    boolean answeredBefore = answeredUsers.contains(user);
    Outcome outcome;
    String error = null;
    Visits.begin(visitSequence.incrementAndGet());
    try {
      List<String> recommendations = client.recommendations(user);
      // Brace hands back the list it remembered, so a stale answer is a list some caller was
      // handed before; a fresh one is a new list from the service, even when its items are the same.
      outcome = recommendations.equals(RecsClient.EDITORS_PICKS) ? Outcome.FALLBACK
          : handedOut.add(recommendations) ? Outcome.ANSWERED : Outcome.STALE;
      if (outcome == Outcome.ANSWERED) {
        answeredUsers.add(user);
      }
    } catch (Exception failure) {
      outcome = Outcome.ERROR;
      error = failure.getClass().getSimpleName();
    } finally {
      Visits.end();
    }
    long endNanos = pacing.now().orElseThrow().elapsedNanos();
    calls.add(new Call(start.elapsedMillis(), (endNanos - start.elapsedNanos()) / 1_000, phase, outcome, error,
        answeredBefore));
  }

  /**
   * Four calls in five come from a returning user, one in five from a user never seen before, for
   * whom nothing can be remembered. Each caller serves its own {@link #RETURNING_USERS_PER_CALLER}
   * returning users in turn (forty for the demo's eight callers), so every one of them has been
   * answered once a caller has made a few calls in the healthy phase, however slow the machine.
   */
  private String nextUser(int callerIndex, long visit) {
    if (visit % 5 == 4) {
      return "new-user-" + userSequence.incrementAndGet();
    }
    long returning = visit - visit / 5;
    return "user-" + (callerIndex * RETURNING_USERS_PER_CALLER + returning % RETURNING_USERS_PER_CALLER);
  }

  /** How many returning users each caller serves. */
  static final int RETURNING_USERS_PER_CALLER = 5;

  /**
   * Waits for every caller to finish its last call.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void awaitEnd() throws InterruptedException {
    for (Thread caller : callers) {
      caller.join();
    }
  }

  /** @return the run's name */
  public String title() {
    return title;
  }

  /** @return whether the calls went through Brace */
  public boolean withBrace() {
    return registry != null;
  }

  /** @return every call so far */
  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** @return every registry event so far; empty without Brace */
  public List<RecordedEvent> events() {
    return List.copyOf(events);
  }

  /** @return the service's access log */
  public List<RecsService.Request> received() {
    return service.accessLog();
  }

  /**
   * @return the breaker's stored state now; empty without Brace, or when configuration switched
   *     the breaker off ({@code BRACE_CIRCUITBREAKER_RECS_API_ENABLED=false})
   */
  public Optional<CircuitState> breakerState() {
    if (registry == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(registry.circuitBreaker(breakerName).state());
    } catch (IllegalArgumentException switchedOff) {
      return Optional.empty();
    }
  }

  /** @return the breaker's name; null without Brace */
  public String breakerName() {
    return breakerName;
  }

  /** @return the pacing of the incident it runs */
  public Pacing pacing() {
    return pacing;
  }
}
