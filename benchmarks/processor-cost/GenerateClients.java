import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes N client interfaces of the kind Brace is for, into OUTDIR/bench/pK/ClientNNN.java, for the
 * processor-cost benchmark. Run as a source file: {@code java GenerateClients.java OUTDIR 500}, or
 * {@code java GenerateClients.java OUTDIR 500 --with-implementations} to write beside each interface
 * the hand-written HTTP implementation a service team would have (HttpClientNNN.java), so that the
 * compilation is a module as it is in a real build rather than nothing but annotated interfaces.
 * {@code --delegating DIR} also writes into DIR, for each interface, the least a wrapper with a
 * source of its own can be (DelegatingClientNNN.java: a final class whose methods only call the
 * delegate), the lower bound of any processor that writes a class per interface.
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
    boolean implementations = false;
    Path delegating = null;
    for (int a = 2; a < args.length; a++) {
      if (args[a].equals("--with-implementations")) {
        implementations = true;
      } else if (args[a].equals("--delegating") && a + 1 < args.length) {
        delegating = Path.of(args[++a]);
      } else {
        throw new IllegalArgumentException("unknown argument " + args[a] + " (--with-implementations, --delegating DIR)");
      }
    }
    for (int i = 0; i < count; i++) {
      String pkg = "bench.p" + (i % 10);
      String name = String.format("Client%03d", i);
      Path file = out.resolve(pkg.replace('.', '/')).resolve(name + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source(pkg, name, i));
      if (implementations) {
        Files.writeString(file.resolveSibling("Http" + name + ".java"), implementation(pkg, name, i));
      }
      if (delegating != null) {
        Path wrapper = delegating.resolve(pkg.replace('.', '/')).resolve("Delegating" + name + ".java");
        Files.createDirectories(wrapper.getParent());
        Files.writeString(wrapper, delegatingWrapper(pkg, name, i));
      }
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

  /**
   * A wrapper that only delegates, shaped as the generated one is (a final class over the
   * delegate, made by {@code wrap}, forwarding equality and text), with no resilience in it.
   */
  private static String delegatingWrapper(String pkg, String name, int i) {
    String wrapper = "Delegating" + name;
    String search = i % 2 == 0
        ? "  public List<String> search(String userId, Query query) throws IOException {\n    return delegate.search(userId, query);\n  }\n"
        : "  public List<String> search(Query query, String userId) throws IOException {\n    return delegate.search(query, userId);\n  }\n";
    return "package " + pkg + ";\n"
        + "\n"
        + "import java.io.IOException;\n"
        + "import java.util.List;\n"
        + "import java.util.Objects;\n"
        + "import java.util.concurrent.CompletableFuture;\n"
        + "\n"
        + "public final class " + wrapper + " implements " + name + " {\n"
        + "  private final " + name + " delegate;\n"
        + "\n"
        + "  private " + wrapper + "(" + name + " delegate) {\n"
        + "    this.delegate = Objects.requireNonNull(delegate, \"delegate\");\n"
        + "  }\n"
        + "\n"
        + "  public static " + name + " wrap(" + name + " delegate) {\n"
        + "    return new " + wrapper + "(delegate);\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public Item item(String id) throws IOException {\n    return delegate.item(id);\n  }\n"
        + "\n"
        + "  @Override\n"
        + search
        + "\n"
        + "  @Override\n"
        + "  public CompletableFuture<Item> itemAsync(String id, int attempt) {\n    return delegate.itemAsync(id, attempt);\n  }\n"
        + "\n"
        + "  @Override\n"
        + "  public void put(Item item, boolean overwrite) throws IOException {\n    delegate.put(item, overwrite);\n  }\n"
        + "\n"
        + "  @Override\n"
        + "  public <T extends Comparable<T>> List<T> sorted(List<T> values, int... order) {\n    return delegate.sorted(values, order);\n  }\n"
        + "\n"
        + "  @Override\n"
        + "  public String describe() {\n    return delegate.describe();\n  }\n"
        + "\n"
        + "  @Override\n"
        + "  public boolean equals(Object other) {\n    return other == this || delegate.equals(other);\n  }\n"
        + "\n"
        + "  @Override\n"
        + "  public int hashCode() {\n    return delegate.hashCode();\n  }\n"
        + "\n"
        + "  @Override\n"
        + "  public String toString() {\n    return delegate.toString();\n  }\n"
        + "}\n";
  }

  /**
   * The implementation a team writes by hand for one interface: java.net.http calls, status checks
   * and a small line-based parser. About a hundred lines, a plain client of six methods.
   */
  private static String implementation(String pkg, String name, int i) {
    String impl = "Http" + name;
    String searchParameters = i % 2 == 0 ? "String userId, Query query" : "Query query, String userId";
    return "package " + pkg + ";\n"
        + "\n"
        + "import java.io.IOException;\n"
        + "import java.io.UncheckedIOException;\n"
        + "import java.net.URI;\n"
        + "import java.net.URLEncoder;\n"
        + "import java.net.http.HttpClient;\n"
        + "import java.net.http.HttpRequest;\n"
        + "import java.net.http.HttpResponse;\n"
        + "import java.nio.charset.StandardCharsets;\n"
        + "import java.time.Duration;\n"
        + "import java.util.ArrayList;\n"
        + "import java.util.Comparator;\n"
        + "import java.util.LinkedHashMap;\n"
        + "import java.util.List;\n"
        + "import java.util.Map;\n"
        + "import java.util.concurrent.CompletableFuture;\n"
        + "import java.util.stream.Collectors;\n"
        + "\n"
        + "/** The HTTP implementation of " + name + ". */\n"
        + "public final class " + impl + " implements " + name + " {\n"
        + "  private final HttpClient http;\n"
        + "  private final URI base;\n"
        + "  private final Duration requestTimeout;\n"
        + "\n"
        + "  public " + impl + "(HttpClient http, URI base, Duration requestTimeout) {\n"
        + "    this.http = http;\n"
        + "    this.base = base;\n"
        + "    this.requestTimeout = requestTimeout;\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public Item item(String id) throws IOException {\n"
        + "    HttpResponse<String> response = send(get(\"/items/\" + encode(id)));\n"
        + "    return parseItem(id, response.body());\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public List<String> search(" + searchParameters + ") throws IOException {\n"
        + "    String path = \"/search?user=\" + encode(userId) + \"&region=\" + encode(query.region()) + \"&limit=\" + query.limit();\n"
        + "    HttpResponse<String> response = send(get(path));\n"
        + "    List<String> hits = new ArrayList<>();\n"
        + "    for (String line : response.body().split(\"\\n\")) {\n"
        + "      if (!line.isBlank()) {\n"
        + "        hits.add(line.trim());\n"
        + "      }\n"
        + "    }\n"
        + "    return hits.size() > query.limit() ? hits.subList(0, query.limit()) : hits;\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public CompletableFuture<Item> itemAsync(String id, int attempt) {\n"
        + "    HttpRequest request = HttpRequest.newBuilder(base.resolve(\"/items/\" + encode(id)))\n"
        + "        .timeout(requestTimeout).header(\"X-Attempt\", Integer.toString(attempt)).GET().build();\n"
        + "    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {\n"
        + "      try {\n"
        + "        check(response);\n"
        + "        return parseItem(id, response.body());\n"
        + "      } catch (IOException e) {\n"
        + "        throw new UncheckedIOException(e);\n"
        + "      }\n"
        + "    });\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public void put(Item item, boolean overwrite) throws IOException {\n"
        + "    String body = item.fields().entrySet().stream()\n"
        + "        .map(e -> e.getKey() + \"=\" + e.getValue())\n"
        + "        .collect(Collectors.joining(\"\\n\", \"version=\" + item.version() + \"\\n\", \"\"));\n"
        + "    HttpRequest request = HttpRequest.newBuilder(base.resolve(\"/items/\" + encode(item.id())))\n"
        + "        .timeout(requestTimeout)\n"
        + "        .header(\"If-Match\", overwrite ? \"*\" : Long.toString(item.version()))\n"
        + "        .PUT(HttpRequest.BodyPublishers.ofString(body))\n"
        + "        .build();\n"
        + "    send(request);\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public <T extends Comparable<T>> List<T> sorted(List<T> values, int... order) {\n"
        + "    List<T> copy = new ArrayList<>(values);\n"
        + "    Comparator<T> natural = Comparator.naturalOrder();\n"
        + "    copy.sort(order.length > 0 && order[0] < 0 ? natural.reversed() : natural);\n"
        + "    return copy;\n"
        + "  }\n"
        + "\n"
        + "  @Override\n"
        + "  public String describe() {\n"
        + "    return \"" + name + " at \" + base;\n"
        + "  }\n"
        + "\n"
        + "  private HttpRequest get(String path) {\n"
        + "    return HttpRequest.newBuilder(base.resolve(path)).timeout(requestTimeout).GET().build();\n"
        + "  }\n"
        + "\n"
        + "  private HttpResponse<String> send(HttpRequest request) throws IOException {\n"
        + "    try {\n"
        + "      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());\n"
        + "      check(response);\n"
        + "      return response;\n"
        + "    } catch (InterruptedException e) {\n"
        + "      Thread.currentThread().interrupt();\n"
        + "      throw new IOException(\"interrupted calling \" + request.uri(), e);\n"
        + "    }\n"
        + "  }\n"
        + "\n"
        + "  private static void check(HttpResponse<String> response) throws IOException {\n"
        + "    if (response.statusCode() >= 400) {\n"
        + "      throw new IOException(response.request().method() + \" \" + response.uri() + \": \" + response.statusCode());\n"
        + "    }\n"
        + "  }\n"
        + "\n"
        + "  private static Item parseItem(String id, String body) throws IOException {\n"
        + "    Map<String, String> fields = new LinkedHashMap<>();\n"
        + "    long version = -1;\n"
        + "    for (String line : body.split(\"\\n\")) {\n"
        + "      int eq = line.indexOf('=');\n"
        + "      if (eq <= 0) {\n"
        + "        continue;\n"
        + "      }\n"
        + "      String key = line.substring(0, eq).trim();\n"
        + "      String value = line.substring(eq + 1).trim();\n"
        + "      if (key.equals(\"version\")) {\n"
        + "        try {\n"
        + "          version = Long.parseLong(value);\n"
        + "        } catch (NumberFormatException e) {\n"
        + "          throw new IOException(\"bad version for item \" + id + \": \" + value, e);\n"
        + "        }\n"
        + "      } else {\n"
        + "        fields.put(key, value);\n"
        + "      }\n"
        + "    }\n"
        + "    return new Item(id, version, Map.copyOf(fields));\n"
        + "  }\n"
        + "\n"
        + "  private static String encode(String value) {\n"
        + "    return URLEncoder.encode(value, StandardCharsets.UTF_8);\n"
        + "  }\n"
        + "}\n";
  }
}
