package dev.brace.test;

import dev.brace.Hedge;
import dev.brace.StaleIfError;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/** A dependency that may answer late, or not at all. */
public interface Slow {
  @Timeout("1s")
  CompletableFuture<String> bounded(String id);

  @Hedge(delay = "50ms")
  CompletableFuture<String> hedged(String id);

  @StaleIfError(maxAge = "10m", key = "{id}")
  String remembered(String id) throws IOException;
}
