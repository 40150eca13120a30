package dev.brace.examples.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.docs.RepositoryFiles;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** docs/grafana/brace-dashboard.json is valid JSON, and every metric it queries is in a real scrape. */
class GrafanaDashboardTest {
  private static final Pattern METRIC = Pattern.compile("\\bbrace_[a-z_]+\\b");

  private static Map<?, ?> dashboard;
  private static Scrape scrape;

  @BeforeAll
  static void read() throws Exception {
    dashboard = (Map<?, ?>) Json.parse(Files.readString(RepositoryFiles.root().resolve("docs/grafana/brace-dashboard.json")));
    scrape = PrometheusScrapeTest.scrape();
  }

  private static List<String> expressions() {
    List<String> expressions = new ArrayList<>();
    for (Object panel : (List<?>) dashboard.get("panels")) {
      for (Object target : (List<?>) ((Map<?, ?>) panel).get("targets")) {
        expressions.add((String) ((Map<?, ?>) target).get("expr"));
      }
    }
    return expressions;
  }

  @Test
  void everyQueriedMetricIsScraped() {
    Set<String> queried = new TreeSet<>();
    for (String expression : expressions()) {
      Matcher metric = METRIC.matcher(expression);
      assertTrue(metric.find(), "queries no Brace metric: " + expression);
      do {
        queried.add(metric.group());
      } while (metric.find());
    }
    Set<String> missing = new TreeSet<>(queried);
    missing.removeAll(scrape.names());
    assertEquals(Set.of(), missing, "queried but never scraped; the scrape has " + scrape.names());
    assertTrue(queried.containsAll(Set.of("brace_calls_seconds_count", "brace_calls_seconds_bucket",
        "brace_circuitbreaker_state", "brace_ratelimit_wait_seconds_sum", "brace_bulkhead_wait_seconds_sum",
        "brace_retry_budget_available")), "the panels the guide promises: " + queried);
  }

  @Test
  void isAnImportableDashboard() {
    assertEquals("brace-resilience", dashboard.get("uid"));
    assertTrue(dashboard.get("schemaVersion") instanceof Double);
    List<?> panels = (List<?>) dashboard.get("panels");
    assertFalse(panels.isEmpty());
    Set<Object> ids = new TreeSet<>();
    for (Object panel : panels) {
      Map<?, ?> fields = (Map<?, ?>) panel;
      assertTrue(ids.add(fields.get("id")), "panel ids are unique: " + fields.get("id"));
      assertTrue(fields.get("title") instanceof String && fields.get("gridPos") instanceof Map, fields.toString());
    }
  }

  @Test
  void theReaderRefusesWhatIsNotJson() {
    assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1,}"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 01}"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] 2"));
    assertEquals(Map.of("a", List.of(1.0, "x\n", true)), Json.parse("{\"a\": [1, \"x\\n\", true]}"));
  }
}
