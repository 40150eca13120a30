package dev.brace.examples.incident;

import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * The incident made by configuration alone: two healthy services, and per phase the fault injection
 * settings a game day's operator would set ({@code BRACE_CHAOS_RECS_API_…}), applied to the running
 * registries with {@code registry.reconfigure} as each phase begins — the brownout's 503s, the
 * latency spike and the hard down are injected into the callers' attempts, inside every pattern.
 * The run without Brace goes through a wrapper of its own registry with every pattern switched off
 * ({@code …_ENABLED=false}), so it meets the same injected incident with nothing to answer it.
 */
public final class GameDay {
  /** The name the settings go under: the demo client's breaker, limiter and bulkhead. */
  public static final String NAME = "RECS_API";

  /** Every pattern of {@code RecsClient.recommendations}, switched off. */
  private static final Map<String, String> PATTERNS_OFF = Map.of(
      "BRACE_FALLBACK_RECSCLIENT_RECOMMENDATIONS_ENABLED", "false",
      "BRACE_STALEIFERROR_RECSCLIENT_RECOMMENDATIONS_ENABLED", "false",
      "BRACE_RETRY_RECSCLIENT_RECOMMENDATIONS_ENABLED", "false",
      "BRACE_TIMEOUT_RECSCLIENT_RECOMMENDATIONS_ENABLED", "false",
      "BRACE_CIRCUITBREAKER_RECS_API_ENABLED", "false",
      "BRACE_RATELIMIT_RECS_API_ENABLED", "false",
      "BRACE_BULKHEAD_RECS_API_ENABLED", "false");

  private final Map<Phase, Map<String, String>> plan;
  private final Map<String, String> environment;
  private final Map<String, String> systemProperties;
  private final Registry brace;
  private final Registry patternsOff;
  /** The phase whose settings the registries run on; guarded by this object's monitor. */
  private Phase applied;

  private GameDay(Map<Phase, Map<String, String>> plan, Map<String, String> environment,
      Map<String, String> systemProperties, Registry brace) {
    this.plan = plan;
    this.environment = Map.copyOf(environment);
    this.systemProperties = Map.copyOf(systemProperties);
    this.brace = Objects.requireNonNull(brace, "brace");
    this.patternsOff = Registry.builder().environment(layered(PATTERNS_OFF, Phase.HEALTHY))
        .systemProperties(this.systemProperties).build();
  }

  /**
   * The game day of the demo's script: a share of attempts failing with a 503 in the brownout, every
   * attempt answering the spike's latency late, every attempt failing in the hard down.
   *
   * @param script the shares and latency to inject, as the scripted service misbehaves
   * @return per phase, the settings that make it (none in the healthy phase and the recovery)
   */
  public static Map<Phase, Map<String, String>> plan(IncidentScript script) {
    Map<Phase, Map<String, String>> plan = new EnumMap<>(Phase.class);
    for (Phase phase : Phase.values()) {
      plan.put(phase, Map.of());
    }
    plan.put(Phase.BROWNOUT, Map.of(
        key("FAULT_RATE"), String.valueOf(script.brownoutShare()),
        key("FAULT"), dev.brace.examples.ServiceUnavailableException.class.getName()));
    plan.put(Phase.LATENCY_SPIKE, Map.of(
        key("LATENCY"), script.spikeLatency().toMillis() + "ms",
        key("LATENCY_RATE"), "1"));
    plan.put(Phase.HARD_DOWN, Map.of(key("FAULT_RATE"), "1"));
    return plan;
  }

  private static String key(String property) {
    return "BRACE_CHAOS_" + NAME + "_" + property;
  }

  /**
   * @param plan per phase, the fault injection settings it runs with
   * @param environment the outer layers the Brace run's registry was built with, under the plan
   * @param systemProperties its system properties
   * @param brace the Brace run's registry, built on {@link #environmentAt(Map, Phase, Map)} of the healthy phase
   * @return the game day, on the healthy phase's settings
   */
  public static GameDay of(Map<Phase, Map<String, String>> plan, Map<String, String> environment,
      Map<String, String> systemProperties, Registry brace) {
    Map<Phase, Map<String, String>> copy = new EnumMap<>(Phase.class);
    plan.forEach((phase, settings) -> copy.put(phase, Map.copyOf(settings)));
    return new GameDay(copy, environment, systemProperties, brace);
  }

  /**
   * @return {@code environment} with fault injection switched on and the phase's settings laid over it
   */
  public static Map<String, String> environmentAt(Map<Phase, Map<String, String>> plan, Phase phase,
      Map<String, String> environment) {
    Map<String, String> layered = new TreeMap<>(environment);
    layered.put("BRACE_CHAOS_ENABLED", "true");
    layered.putAll(plan.getOrDefault(phase, Map.of()));
    return layered;
  }

  private Map<String, String> layered(Map<String, String> extra, Phase phase) {
    Map<String, String> base = new LinkedHashMap<>(environment);
    base.putAll(extra);
    return environmentAt(plan, phase, base);
  }

  /** @return per phase, the settings the game day runs with */
  public Map<Phase, Map<String, String>> plan() {
    return plan;
  }

  /**
   * @param plain the plain client
   * @return the same client behind a generated wrapper with every pattern switched off: fault
   *     injection reaches its callers, nothing answers it
   */
  RecsClient withoutPatterns(RecsClient plain) {
    return ResilientRecsClient.wrap(plain, patternsOff);
  }

  /** Applies a phase's settings to both registries, once, when the first call of the phase is made. */
  synchronized void follow(Phase phase) {
    if (phase == applied) {
      return;
    }
    brace.reconfigure(environmentAt(plan, phase, environment), systemProperties);
    patternsOff.reconfigure(layered(PATTERNS_OFF, phase), systemProperties);
    applied = phase;
  }

  /** @return the incident's pacing, which applies each phase's settings as it begins */
  Pacing following(Pacing pacing) {
    return new Following(pacing);
  }

  /** @return one line per phase with settings: {@code brownout: BRACE_CHAOS_RECS_API_FAULT=…, …} */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    plan.forEach((phase, settings) -> {
      if (!settings.isEmpty()) {
        List<String> pairs = new ArrayList<>();
        new TreeMap<>(settings).forEach((key, value) -> pairs.add(key + "=" + value));
        lines.add(phase.label() + ": " + String.join(", ", pairs));
      }
    });
    return lines;
  }

  /** The incident's pacing, which switches the settings at the first call of each phase. */
  private final class Following implements Pacing {
    private final Pacing pacing;

    Following(Pacing pacing) {
      this.pacing = pacing;
    }

    @Override
    public void begin() {
      pacing.begin();
      follow(Phase.HEALTHY);
    }

    @Override
    public Optional<Moment> now() {
      return pacing.now();
    }

    @Override
    public Instant beganAt() {
      return pacing.beganAt();
    }

    @Override
    public Random failures(Phase phase) {
      return pacing.failures(phase);
    }

    @Override
    public void answerLate(Duration latency) throws InterruptedException {
      pacing.answerLate(latency);
    }

    @Override
    public boolean nextCall(boolean first, boolean throughBrace) throws InterruptedException {
      boolean going = pacing.nextCall(first, throughBrace);
      if (going) {
        pacing.now().ifPresent(moment -> follow(moment.phase()));
      }
      return going;
    }

    @Override
    public void callEnded() {
      pacing.callEnded();
    }

    @Override
    public void requestSent() {
      pacing.requestSent();
    }

    @Override
    public void requestEnded() {
      pacing.requestEnded();
    }

    @Override
    public void drive(int callers, LongConsumer tick, long tickMillis) throws InterruptedException {
      pacing.drive(callers, tick, tickMillis);
    }

    @Override
    public IncidentScript played() {
      return pacing.played();
    }
  }
}
