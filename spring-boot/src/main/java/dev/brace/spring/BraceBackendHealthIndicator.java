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

/**
 * One backend of the registry in Actuator's health (under {@code braceBackends}, by the name
 * settings use): UP while its store can be reached; {@code DOWN} during an outage, with when it
 * began, where (a cluster node), why, and the fallback in force. An outage of the store does not
 * make the application unhealthy — its instances go on deciding, locally or by refusing — so the
 * backends sit in a health group of their own, {@code brace-backends}, that the application's own
 * health leaves out unless {@code brace.health.backend-down=true} (see {@link
 * BraceBackendsHealthGroup}). A backend that cannot tell ({@link Backend#status()} empty) is {@code
 * UNKNOWN}.
 */
public final class BraceBackendHealthIndicator implements HealthIndicator {
  private final Backend backend;

  /**
   * @param backend the backend reported
   * @throws NullPointerException when {@code backend} is null
   */
  public BraceBackendHealthIndicator(Backend backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  /**
   * @return UP with the fallback in force; during an outage DOWN with {@code since}, the {@code
   *     fallback}, {@code outages} ({@code node}, {@code since}, {@code cause}) and whether instances
   *     meanwhile decide locally; UNKNOWN for a backend that cannot tell
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
    return Health.down()
        .withDetail("since", String.valueOf(since))
        .withDetail("fallback", status.fallback())
        .withDetail("decidingLocally", status.decidesLocally())
        .withDetail("outages", outages)
        .build();
  }
}
