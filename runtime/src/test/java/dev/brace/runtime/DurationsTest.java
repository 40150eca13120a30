package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "250ms, 250000000",
    "1.5s, 1500000000",
    "0ms, 0",
    "7ns, 7",
    "3us, 3000",
    "2m, 120000000000",
    "1h, 3600000000000",
    "PT1S, 1000000000",
    "PT0.25S, 250000000",
    "' 100ms ', 100000000",
    "10 s, 10000000000"
  })
  void parsesTheGrammar(String text, long nanos) {
    assertEquals(Duration.ofNanos(nanos), Durations.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "100", "ms", "1.5", "-1s", "1 sec", "1S", "1.5ns", "PT-1S", "P", "abc", "1e3ms", "99999999999999999999h"})
  void refusesAnythingElseNamingTheText(String text) {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
    assertTrue(refused.getMessage().contains("\"" + text + "\""), refused.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"0, 0ms", "1500000000, 1500ms", "2000000000, 2s", "60000000000, 1m", "7, 7ns"})
  void describesInTheLargestWholeUnit(long nanos, String expected) {
    assertEquals(expected, Durations.describe(Duration.ofNanos(nanos)));
    assertEquals(Duration.ofNanos(nanos), Durations.parse(expected));
  }
}
