package dev.brace.examples;

import java.util.Locale;

/** The few SVG elements the demos' HTML reports draw with, written as text. */
public final class Svg {
  private Svg() {}

  /**
   * Appends a rectangle; a negative size is drawn as none.
   *
   * @param title the tooltip, or null for none
   */
  public static void rect(StringBuilder svg, double x, double y, double w, double h, String fill, String title) {
    svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
        x, y, Math.max(0, w), Math.max(0, h), fill));
    if (title == null) {
      svg.append("/>\n");
    } else {
      svg.append("><title>").append(escape(title)).append("</title></rect>\n");
    }
  }

  /** Appends a line. */
  public static void line(StringBuilder svg, double x1, double y1, double x2, double y2, String stroke, double width) {
    svg.append(String.format(Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
        x1, y1, x2, y2, stroke, width));
  }

  /** Appends a text, escaped. */
  public static void text(StringBuilder svg, double x, double y, String text, String anchor, double size,
      String fill, boolean bold) {
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.1f\" fill=\"%s\"%s>%s</text>\n",
        x, y, anchor, size, fill, bold ? " font-weight=\"600\"" : "", escape(text)));
  }

  /**
   * @param text any text
   * @return it safe inside an HTML or SVG element or attribute
   */
  public static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
