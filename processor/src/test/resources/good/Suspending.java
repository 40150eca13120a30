package p;

import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.Timeout;
import java.io.IOException;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;

/** A Kotlin client as kapt hands it to the processor: suspend functions and a Flow. */
public interface Suspending {
  @Retry(maxAttempts = 3, delay = "10ms")
  @RateLimit(name = "items", permits = 10, key = "user:{user}")
  @Timeout("1s")
  @Fallback(method = "noItem", on = IOException.class)
  Object item(String user, int page, Continuation<? super String> $completion);

  default Object noItem(String user, int page, IOException cause, Continuation<? super String> $completion) {
    return null;
  }

  @StaleIfError
  @Fallback(method = "forget")
  Object touch(String id, Continuation<? super Unit> $completion);

  default void forget(String id) {}

  @Retry
  @Fallback(method = "noItems")
  Flow<String> items(String user);

  default Flow<String> noItems(String user, Throwable cause) {
    return null;
  }

  Object plain(String id, Continuation<? super String> $completion);
}
