import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes N client interfaces of the kind Brace is for, into OUTDIR/bench/pK/ClientNNN.java, for the
 * processor-cost benchmark. Run as a source file: {@code java GenerateClients.java OUTDIR 500}.
 *
 * <p>Each interface has six methods and mixes what users write: a type-level breaker (classic or
 * rate mode) on two thirds of them; a sync method with retry, timeout and a fallback taking the
 * cause; a keyed rate limit on a parameter, or on a property of a request record; an async method
 * with retry and timeout; a bulkhead on a void method with a checked exception; a generic method;
 * and one method with no annotation. Names are unique per interface, as they are per service.
 */
public final class GenerateClients {
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    for (int i = 0; i < count; i++) {
      String pkg = "bench.p" + (i % 10);
      String name = String.format("Client%03d", i);
      Path file = out.resolve(pkg.replace('.', '/')).resolve(name + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source(pkg, name, i));
    }
  }

  private static String source(String pkg, String name, int i) {
    String service = "svc-" + i;
    String breaker;
    switch (i % 3) {
      case 0:
        breaker = "@CircuitBreaker(name = \"" + service + "\", failureThreshold = " + (3 + i % 5) + ", resetTimeout = \"10s\")\n";
        break;
      case 1:
        breaker = "@CircuitBreaker(name = \"" + service + "\", failureRate = 0.5, window = \"30s\", minimumCalls = 20, on = IOException.class)\n";
        break;
      default:
        breaker = "";
    }
    String limitKey = i % 2 == 0 ? "user:{userId}" : "region:{query.region}";
    String limited = i % 2 == 0
        ? "List<String> search(String userId, Query query) throws IOException;"
        : "List<String> search(Query query, String userId) throws IOException;";
    return "package " + pkg + ";\n"
        + "\n"
        + "import dev.brace.Bulkhead;\n"
        + "import dev.brace.CircuitBreaker;\n"
        + "import dev.brace.Fallback;\n"
        + "import dev.brace.RateLimit;\n"
        + "import dev.brace.Retry;\n"
        + "import dev.brace.Timeout;\n"
        + "import java.io.IOException;\n"
        + "import java.util.List;\n"
        + "import java.util.Map;\n"
        + "import java.util.concurrent.CompletableFuture;\n"
        + "\n"
        + "/** Client of " + service + ". */\n"
        + breaker
        + "public interface " + name + " {\n"
        + "  record Item(String id, long version, Map<String, String> fields) {}\n"
        + "\n"
        + "  record Query(String region, int limit) {}\n"
        + "\n"
        + "  @Retry(maxAttempts = " + (2 + i % 3) + ", delay = \"" + (50 + i % 7 * 10) + "ms\", on = IOException.class)\n"
        + "  @Timeout(\"" + (500 + i % 4 * 250) + "ms\")\n"
        + "  @Fallback(method = \"cachedItem\")\n"
        + "  Item item(String id) throws IOException;\n"
        + "\n"
        + "  default Item cachedItem(String id, Exception cause) {\n"
        + "    return new Item(id, -1, Map.of());\n"
        + "  }\n"
        + "\n"
        + "  @RateLimit(name = \"" + service + "-search\", permits = " + (10 + i % 90) + ", per = \"1s\", maxWait = \"20ms\", key = \"" + limitKey + "\")\n"
        + "  " + limited + "\n"
        + "\n"
        + "  @Retry(maxAttempts = 3, delay = \"100ms\", jitter = Retry.Jitter.EQUAL)\n"
        + "  @Timeout(\"2s\")\n"
        + "  CompletableFuture<Item> itemAsync(String id, int attempt);\n"
        + "\n"
        + "  @Bulkhead(name = \"" + service + "-writes\", maxConcurrent = " + (4 + i % 8) + ", maxWait = \"10ms\")\n"
        + "  @Timeout(value = \"1s\", mode = Timeout.Mode.ABANDON)\n"
        + "  void put(Item item, boolean overwrite) throws IOException;\n"
        + "\n"
        + "  @Retry\n"
        + "  <T extends Comparable<T>> List<T> sorted(List<T> values, int... order);\n"
        + "\n"
        + "  String describe();\n"
        + "}\n";
  }
}
