package dev.brace.examples.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A Prometheus text-format scrape, parsed into samples: what a Prometheus server would store. */
final class Scrape {
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** One line of the scrape. */
  record Sample(String name, Map<String, String> labels, double value) {
    boolean has(String... namesAndValues) {
      for (int i = 0; i < namesAndValues.length; i += 2) {
        if (!namesAndValues[i + 1].equals(labels.get(namesAndValues[i]))) {
          return false;
        }
      }
      return true;
    }

    String label(String name) {
      return labels.get(name);
    }
  }

  private final List<Sample> samples;

  private Scrape(List<Sample> samples) {
    this.samples = samples;
  }

  /**
   * @param text the text format
   * @return its samples
   * @throws IllegalArgumentException on a line that is neither a comment nor a sample
   */
  static Scrape parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher sample = SAMPLE.matcher(line);
      if (!sample.matches()) {
        throw new IllegalArgumentException("not a sample: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (sample.group(3) != null) {
        Matcher label = LABEL.matcher(sample.group(3));
        while (label.find()) {
          labels.put(label.group(1), label.group(2));
        }
      }
      samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(4).replace("+Inf", "Infinity"))));
    }
    return new Scrape(samples);
  }

  /** @return every sample of a metric */
  List<Sample> samples(String name) {
    return samples.stream().filter(sample -> sample.name().equals(name)).collect(Collectors.toList());
  }

  /** @return the names of every metric scraped */
  Set<String> names() {
    return samples.stream().map(Sample::name).collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * @return the value of the one sample of {@code name} with those labels (others may be present)
   * @throws AssertionError when there is none or more than one
   */
  double value(String name, String... labelNamesAndValues) {
    List<Sample> matching = samples(name).stream().filter(sample -> sample.has(labelNamesAndValues)).collect(Collectors.toList());
    if (matching.size() != 1) {
      throw new AssertionError(matching.size() + " samples of " + name + " " + String.join(",", labelNamesAndValues)
          + "; the scrape has " + samples(name));
    }
    return matching.get(0).value();
  }
}
