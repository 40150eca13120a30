package dev.brace.spring;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.core.Ordered;

/**
 * Puts the backends' health ({@code braceBackends}) in a health group of its own, {@value #GROUP},
 * and, unless {@code brace.health.backend-down=true}, out of the application's own health. A backend
 * whose store cannot be reached reports {@code DOWN}, which is what operators' alerts key on; but
 * the application is not down for it (its instances go on deciding, locally or by refusing), so
 * {@code /actuator/health} leaves the component out while {@code /actuator/health/brace-backends}
 * says {@code DOWN} (HTTP 503), with the component at {@code
 * /actuator/health/brace-backends/braceBackends/<name>}. Spring Boot's groups cannot share a name
 * with a contributor, hence the group's own name. A group of that name the application configured
 * itself is kept as it is.
 */
final class BraceBackendsHealthGroup implements HealthEndpointGroupsPostProcessor, Ordered {
  /** The group's name: {@code /actuator/health/brace-backends}. */
  static final String GROUP = "brace-backends";
  /** The contributor holding one indicator per backend. */
  static final String CONTRIBUTOR = "braceBackends";

  private final boolean inApplicationHealth;

  /**
   * @param inApplicationHealth whether an outage makes the application's own health {@code DOWN}
   *     ({@code brace.health.backend-down=true}); else the root leaves the backends out
   */
  BraceBackendsHealthGroup(boolean inApplicationHealth) {
    this.inApplicationHealth = inApplicationHealth;
  }

  @Override
  public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
    HealthEndpointGroup primary = groups.getPrimary();
    HealthEndpointGroup root = inApplicationHealth ? primary
        : new Filtered(primary, name -> !backends(name) && primary.isMember(name), primary.getAdditionalPath());
    HealthEndpointGroup backendsGroup = groups.get(GROUP) != null ? groups.get(GROUP)
        : new Filtered(primary, BraceBackendsHealthGroup::backends, null);
    return new Groups(groups, root, backendsGroup);
  }

  /** First, so Spring Boot's availability probes, which add paths of their own, wrap what it makes. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  /** @return whether a health path ({@code braceBackends/redis}) is one of the backends' */
  private static boolean backends(String name) {
    return name.equals(CONTRIBUTOR) || name.startsWith(CONTRIBUTOR + "/");
  }

  /** The application's groups with its root replaced and the backends' group added. */
  private record Groups(HealthEndpointGroups groups, HealthEndpointGroup primary, HealthEndpointGroup backendsGroup)
      implements HealthEndpointGroups {
    @Override
    public HealthEndpointGroup getPrimary() {
      return primary;
    }

    @Override
    public Set<String> getNames() {
      Set<String> names = new LinkedHashSet<>(groups.getNames());
      names.add(GROUP);
      return Collections.unmodifiableSet(names);
    }

    @Override
    public HealthEndpointGroup get(String name) {
      return GROUP.equals(name) ? backendsGroup : groups.get(name);
    }
  }

  /**
   * The root's group with other members: shown, aggregated and mapped to HTTP codes as the root is.
   *
   * @param root the application's own group
   * @param member which health paths it holds
   * @param additionalPath the root's extra path for the root, none for the backends' group
   */
  private record Filtered(HealthEndpointGroup root, Predicate<String> member, AdditionalHealthEndpointPath additionalPath)
      implements HealthEndpointGroup {
    @Override
    public boolean isMember(String name) {
      return member.test(name);
    }

    @Override
    public boolean showComponents(SecurityContext securityContext) {
      return root.showComponents(securityContext);
    }

    @Override
    public boolean showDetails(SecurityContext securityContext) {
      return root.showDetails(securityContext);
    }

    @Override
    public StatusAggregator getStatusAggregator() {
      return root.getStatusAggregator();
    }

    @Override
    public HttpCodeStatusMapper getHttpCodeStatusMapper() {
      return root.getHttpCodeStatusMapper();
    }

    @Override
    public AdditionalHealthEndpointPath getAdditionalPath() {
      return additionalPath;
    }
  }
}
