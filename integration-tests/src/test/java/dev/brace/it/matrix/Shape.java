package dev.brace.it.matrix;

import java.util.concurrent.CompletableFuture;

/**
 * The one call shape every scenario interface redeclares with its own annotations, so a single
 * scripted delegate and a single form driver serve them all. {@code key} feeds key templates;
 * scenarios without a keyed instance ignore it.
 */
interface Shape {
  String call(String key, String input) throws Exception;

  CompletableFuture<String> callAsync(String key, String input);
}
