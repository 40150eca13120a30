package dev.brace.test.spring;

import dev.brace.Retry;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.service.annotation.GetExchange;

/** A Spring HTTP interface: Spring makes the client, the starter wraps it. */
public interface RemoteQuotes {
  @GetExchange("/quotes/{symbol}")
  @Retry(maxAttempts = 2, delay = "10ms", jitter = Retry.Jitter.NONE, on = HttpServerErrorException.class)
  String quote(@PathVariable("symbol") String symbol);
}
