package p;

import dev.brace.CircuitBreaker;
import dev.brace.NotIdempotent;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitOpenException;
import java.net.ConnectException;
import java.net.UnknownHostException;

@NotIdempotent
@CircuitBreaker(name = "payments-api")
public interface Payments {
  @Retry(maxAttempts = 3, on = {ConnectException.class, UnknownHostException.class, CircuitOpenException.class})
  String charge(String orderId) throws ConnectException, UnknownHostException;

  @Timeout("2s")
  String refund(String orderId);
}
