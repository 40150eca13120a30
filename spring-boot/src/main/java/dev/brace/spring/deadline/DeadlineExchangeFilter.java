package dev.brace.spring.deadline;

import dev.brace.runtime.Deadline;
import java.util.Optional;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Adds the milliseconds left of the current deadline to every request a {@code WebClient} sends
 * while one is current. Read when the exchange is subscribed — where a Brace call makes the request,
 * inside its attempt — not when the request was built; a header the application set is left as is.
 */
public final class DeadlineExchangeFilter implements ExchangeFilterFunction {
  private final DeadlineHeader header;

  /** @param header the header that carries the deadline */
  public DeadlineExchangeFilter(DeadlineHeader header) {
    this.header = header;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    return Mono.defer(() -> {
      Optional<Deadline> deadline = Deadline.current();
      if (deadline.isEmpty() || request.headers().containsHeader(header.name())) {
        return next.exchange(request);
      }
      return next.exchange(ClientRequest.from(request).header(header.name(), header.write(deadline.get())).build());
    });
  }
}
