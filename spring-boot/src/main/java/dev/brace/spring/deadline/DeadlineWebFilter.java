package dev.brace.spring.deadline;

import dev.brace.runtime.Deadline;
import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The reactive counterpart of {@link DeadlineServletFilter}: a request that carries the deadline
 * header is handled under that deadline: the handler chain is assembled and subscribed with the
 * deadline open, so a controller method (and the Brace calls it starts) invoked as the chain is
 * subscribed runs under it; steps that continue on other threads carry it through the Brace calls
 * they belong to.
 */
public final class DeadlineWebFilter implements WebFilter {
  private final DeadlineHeader header;

  /** @param header the header that carries the deadline */
  public DeadlineWebFilter(DeadlineHeader header) {
    this.header = header;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    Optional<Deadline> deadline = header.read(exchange.getRequest().getHeaders().getFirst(header.name()));
    if (deadline.isEmpty()) {
      return chain.filter(exchange);
    }
    Deadline opened = deadline.get();
    return Mono.from(subscriber -> {
      try (Deadline.Scope scope = opened.open()) {
        chain.filter(exchange).subscribe(subscriber);
      }
    });
  }
}
