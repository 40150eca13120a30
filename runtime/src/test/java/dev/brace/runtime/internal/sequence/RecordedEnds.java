package dev.brace.runtime.internal.sequence;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What an {@link AsyncAttempt} told its call, in order, each end as {@code succeeded}, {@code
 * stopped}, {@code failed:<exception's simple name>} or {@code refused:<...>}: an attempt must tell
 * exactly one.
 */
final class RecordedEnds implements AsyncAttempt.Listener<String> {
  final List<String> heard = new CopyOnWriteArrayList<>();

  /** @return the first end heard, or null */
  String first() {
    return heard.isEmpty() ? null : heard.get(0);
  }

  @Override
  public void refused(Throwable refusal) {
    heard.add("refused:" + refusal.getClass().getSimpleName());
  }

  @Override
  public void succeeded(String value) {
    heard.add("succeeded");
  }

  @Override
  public void failed(Throwable failure) {
    heard.add("failed:" + failure.getClass().getSimpleName());
  }

  @Override
  public void stopped() {
    heard.add("stopped");
  }
}
