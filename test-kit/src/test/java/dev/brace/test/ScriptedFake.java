package dev.brace.test;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/** The dependency of the tests: fails as many times as it is told, then answers. */
final class ScriptedFake implements Catalog, Stock {
  private final Deque<IOException> failures = new ArrayDeque<>();
  private int calls;

  /** The next {@code times} calls fail with an IOException. */
  ScriptedFake failing(int times) {
    for (int i = 0; i < times; i++) {
      failures.add(new IOException("catalog down (" + (i + 1) + ")"));
    }
    return this;
  }

  int calls() {
    return calls;
  }

  private String answer(String id) throws IOException {
    calls++;
    IOException failure = failures.poll();
    if (failure != null) {
      throw failure;
    }
    return "item " + id;
  }

  @Override
  public String item(String id) throws IOException {
    return answer(id);
  }

  @Override
  public CompletableFuture<String> itemLater(String id) {
    try {
      return CompletableFuture.completedFuture(answer(id));
    } catch (IOException failure) {
      return CompletableFuture.failedFuture(failure);
    }
  }

  @Override
  public String price(String id) throws IOException {
    return answer(id);
  }

  @Override
  public int level(String sku) {
    calls++;
    return 7;
  }
}
