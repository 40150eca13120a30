/**
 * What Brace reads from HTTP client frameworks' exceptions without depending on any of them: the
 * {@code Retry-After} header that Spring's {@code RestClient}/{@code WebClient}, Feign and Retrofit
 * keep with a failed response. A framework is recognised by the class names of an exception's
 * hierarchy and read by reflection, so one absent from the class path costs nothing.
 */
package dev.brace.runtime.internal.http;
