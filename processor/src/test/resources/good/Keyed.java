package p;

import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;

public interface Keyed {
  @CircuitBreaker(name = "keyed-breaker", key = "{request.host}")
  @RateLimit(name = "keyed-limiter", permits = 5, key = "zone:{request.inner.zone}/{tenant}:{port}")
  String call(Request request, String tenant, int port);

  record Request(String host, Inner inner) {}

  final class Inner {
    public String getZone() {
      return "eu";
    }
  }
}
