/**
 * One client of the items service ({@code GET /items/{id}}) per HTTP client framework, each written
 * the way that framework's users write it, with Brace's annotations beside the framework's: a Spring
 * HTTP interface on {@code RestClient}, OpenFeign, Retrofit (through a call adapter that makes a
 * method return {@code T}), and the JDK's {@code HttpClient}. The same Brace settings on each, so the
 * guide's sections compare what each framework throws and what a timeout does to its blocking read.
 */
package dev.brace.examples.frameworks;
