package dev.brace.spring;

import dev.brace.runtime.Backend;
import dev.brace.runtime.BackendStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * One backend of the registry in {@code /actuator/health} (under {@code braceBackends}, by the name
 * settings use): UP while its store can be reached; during an outage, when it began, where (a
 * cluster node), why, and the fallback in force. An outage of the store does not make the
 * application unhealthy — its instances go on deciding, locally or by refusing — so it is reported
 * as {@link #BACKEND_DOWN}, a status Spring Boot's aggregation leaves out (the application stays
 * UP), unless {@code brace.health.backend-down=true}, which reports {@code DOWN}. A backend that
 * cannot tell ({@link Backend#status()} empty) is {@code UNKNOWN}.
 */
public final class BraceBackendHealthIndicator implements HealthIndicator {
  /**
   * A backend's store cannot be reached; the application is not down for it. Not among Spring
   * Boot's default status order, so it leaves the aggregate alone (and answers HTTP 200).
   */
  public static final Status BACKEND_DOWN =
      new Status("BACKEND_DOWN", "the backend's store cannot be reached; its instances decide with their fallback");

  private final Backend backend;
  private final boolean downWhenUnavailable;

  /**
   * @param backend the backend reported
   * @param downWhenUnavailable whether an outage reports {@code DOWN} (else {@link #BACKEND_DOWN})
   * @throws NullPointerException when {@code backend} is null
   */
  public BraceBackendHealthIndicator(Backend backend, boolean downWhenUnavailable) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.downWhenUnavailable = downWhenUnavailable;
  }

  /**
   * @return UP with the fallback in force; during an outage {@link #BACKEND_DOWN} (or DOWN when
   *     asked for) with {@code since}, {@code outages} ({@code node}, {@code since}, {@code cause})
   *     and whether instances meanwhile decide locally; UNKNOWN for a backend that cannot tell
   */
  @Override
  public Health health() {
    Optional<BackendStatus> known = backend.status();
    if (known.isEmpty()) {
      return Health.unknown().withDetail("reason", backend.getClass().getName() + " does not tell whether its store can be reached").build();
    }
    BackendStatus status = known.get();
    if (status.available()) {
      return Health.up().withDetail("fallback", status.fallback()).build();
    }
    List<Map<String, Object>> outages = new ArrayList<>();
    Instant since = null;
    for (BackendStatus.Outage outage : status.outages()) {
      Map<String, Object> detail = new LinkedHashMap<>();
      if (outage.node() != null) {
        detail.put("node", outage.node());
      }
      detail.put("since", outage.since().toString());
      if (outage.cause() != null) {
        detail.put("cause", outage.cause());
      }
      outages.add(detail);
      if (since == null || outage.since().isBefore(since)) {
        since = outage.since();
      }
    }
    return Health.status(downWhenUnavailable ? Status.DOWN : BACKEND_DOWN)
        .withDetail("since", String.valueOf(since))
        .withDetail("fallback", status.fallback())
        .withDetail("decidingLocally", status.decidesLocally())
        .withDetail("outages", outages)
        .build();
  }
}
