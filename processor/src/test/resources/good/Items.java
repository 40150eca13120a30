package p;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Hedge;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.List;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

@CircuitBreaker(name = "items")
public interface Items {
  @Retry(on = IOException.class)
  @Timeout("1s")
  @Fallback(method = "unknown")
  Mono<String> item(String id);

  default String unknown(String id) {
    return "unknown";
  }

  @Hedge(delay = "50ms")
  @StaleIfError(key = "{shelf}")
  @Fallback(method = "none")
  Mono<Integer> count(String shelf, int page);

  default Mono<Integer> none(String shelf, int page, Exception cause) {
    return Mono.empty();
  }

  @Retry
  @RateLimit(permits = 10)
  @Fallback(method = "nothing")
  Flux<String> entries(String feed);

  default Publisher<String> nothing(String feed) {
    return Flux.empty();
  }

  @Timeout("2s")
  Mono<List<String>> all();
}
