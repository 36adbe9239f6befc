// RatingSvg (games/rating.h): a player's rating over time as an SVG picture.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "games/rating.h"
#include "records/utf8.h"

namespace scribe::games {
namespace {

constexpr char kFont[] = "DejaVu Sans, Verdana, Arial, sans-serif";
constexpr char kInk[] = "#3b2f1e";
constexpr char kFaint[] = "#6b5a40";
constexpr char kLine[] = "#1f3b63";  // lapis lazuli, as the review's graphs
constexpr char kBand[] = "#9db4d6";
constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// Text for XML content: &, <, >, " escaped; bytes that are not UTF-8, and
// the characters XML 1.0 cannot hold (controls, U+FFFE, U+FFFF), replaced
// by U+FFFD (a tab or line break by a space).
std::string XmlText(absl::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceAt(text, i);
    const absl::string_view seq = text.substr(i, n == 0 ? 1 : n);
    i += seq.size();
    const unsigned char c = static_cast<unsigned char>(seq[0]);
    if (n == 0 || seq == "\xEF\xBF\xBE" || seq == "\xEF\xBF\xBF") {
      out += kReplacement;
    } else if (c == '\t' || c == '\n' || c == '\r') {
      out += ' ';
    } else if (c < 0x20 || c == 0x7f) {
      out += kReplacement;
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out.append(seq.data(), seq.size());
    }
  }
  return out;
}

// Numbers in attributes: at most two decimals, no trailing zeros.
std::string Num(double v) {
  std::string s = absl::StrFormat("%.2f", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

// "2026-03" as a month number (year * 12 + month - 1); rows made by
// RatingHistory always have one.
int64_t Month(const std::string& period) {
  int year = 0, month = 1;
  if (std::sscanf(period.c_str(), "%d-%d", &year, &month) != 2) return 0;
  return static_cast<int64_t>(year) * 12 + month - 1;
}

std::string MonthName(int64_t month) { return absl::StrFormat("%04d-%02d", month / 12, month % 12 + 1); }

struct Frame {
  double width = 720, height = 360;
  double left = 64, right = 36, top = 48, bottom = 64;
  double plot_w() const { return width - left - right; }
  double plot_h() const { return height - top - bottom; }
};

std::string Text(double x, double y, const std::string& anchor, int size, const char* colour, const std::string& text,
                 const std::string& cls = "") {
  return absl::StrCat("<text", cls.empty() ? "" : absl::StrCat(" class=\"", cls, "\""), " x=\"", Num(x), "\" y=\"",
                      Num(y), "\" text-anchor=\"", anchor, "\" font-family=\"", kFont, "\" font-size=\"", size,
                      "\" fill=\"", colour, "\">", text, "</text>\n");
}

std::string Head(const Frame& f, const std::string& title, const std::string& desc) {
  return absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"", Num(f.width),
                      "\" height=\"", Num(f.height), "\" viewBox=\"0 0 ", Num(f.width), " ", Num(f.height), "\">\n",
                      "<title>", title, "</title>\n<desc>", desc, "</desc>\n",
                      "<rect x=\"0\" y=\"0\" width=\"", Num(f.width), "\" height=\"", Num(f.height),
                      "\" fill=\"#f6f1e4\"/>\n", Text(f.width / 2, 28, "middle", 15, kInk, title),
                      "<rect class=\"plot\" x=\"", Num(f.left), "\" y=\"", Num(f.top), "\" width=\"", Num(f.plot_w()),
                      "\" height=\"", Num(f.plot_h()), "\" fill=\"#fffdf7\" stroke=\"#9c7a45\" stroke-width=\"1\"/>\n");
}

// A round step for about `most` ticks over `span`.
double TickStep(double span, int most) {
  for (double step : {10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0}) {
    if (span / step <= most) return step;
  }
  return std::pow(10.0, std::ceil(std::log10(std::max(1.0, span / most))));
}

}  // namespace

std::string RatingSvg(const std::vector<RatingRow>& rows, const std::string& player) {
  std::vector<const RatingRow*> mine;
  for (const RatingRow& row : rows) {
    if (row.player == player) mine.push_back(&row);
  }
  std::stable_sort(mine.begin(), mine.end(),
                   [](const RatingRow* a, const RatingRow* b) { return a->period < b->period; });
  const Frame f;
  const std::string title = absl::StrCat("Rating of ", XmlText(player));
  if (mine.empty()) {
    return absl::StrCat(Head(f, title, "no rated games"),
                        Text(f.left + f.plot_w() / 2, f.top + f.plot_h() / 2, "middle", 14, kFaint, "no rated games",
                             "empty"),
                        "</svg>\n");
  }
  // The axes: months by the calendar, ratings over every band.
  const int64_t first = Month(mine.front()->period), last = Month(mine.back()->period);
  const int64_t months = std::max<int64_t>(1, last - first);
  double lo = mine.front()->rating, hi = lo;
  for (const RatingRow* r : mine) {
    lo = std::min(lo, r->rating - 2 * r->deviation);
    hi = std::max(hi, r->rating + 2 * r->deviation);
  }
  const double step = TickStep(hi - lo, 8);
  lo = std::floor(lo / step) * step;
  hi = std::ceil(hi / step) * step;
  if (hi <= lo) hi = lo + step;
  const auto x = [&](int64_t month) {
    if (last == first) return f.left + f.plot_w() / 2;
    return f.left + f.plot_w() * static_cast<double>(month - first) / static_cast<double>(months);
  };
  const auto y = [&](double rating) { return f.top + f.plot_h() * (hi - rating) / (hi - lo); };

  std::string out = Head(f, title,
                         absl::StrCat("Glicko-2 rating after each month played, ", mine.size(),
                                      mine.size() == 1 ? " point" : " points", "; the band is rating \xC2\xB1 2 RD"));
  absl::StrAppend(&out, "<g class=\"y-axis\">\n");
  for (double t = lo; t <= hi + step / 2; t += step) {
    absl::StrAppend(&out, "<line x1=\"", Num(f.left), "\" y1=\"", Num(y(t)), "\" x2=\"", Num(f.left + f.plot_w()),
                    "\" y2=\"", Num(y(t)), "\" stroke=\"#e4d9bf\" stroke-width=\"1\"/>\n",
                    Text(f.left - 6, y(t) + 4, "end", 11, kInk, absl::StrCat(static_cast<int64_t>(std::lround(t)))));
  }
  absl::StrAppend(&out, "</g>\n<g class=\"x-axis\">\n");
  int64_t every = 1;
  for (int64_t e : {1, 2, 3, 4, 6, 12, 24, 60, 120, 240, 600, 1200}) {
    every = e;
    if ((last - first) / e < 10) break;
  }
  for (int64_t m = first; m <= last; m += every) {
    absl::StrAppend(&out, "<line x1=\"", Num(x(m)), "\" y1=\"", Num(f.top + f.plot_h()), "\" x2=\"", Num(x(m)),
                    "\" y2=\"", Num(f.top + f.plot_h() + 4), "\" stroke=\"", kFaint, "\" stroke-width=\"1\"/>\n",
                    Text(x(m), f.top + f.plot_h() + 18, "middle", 11, kInk, MonthName(m)));
  }
  absl::StrAppend(&out, Text(f.left + f.plot_w() / 2, f.height - 14, "middle", 11, kFaint,
                             "month (band: rating \xC2\xB1 2 RD, about 95% sure)"),
                  "</g>\n");
  // The band: upper edge forwards, lower edge back.
  std::string band, line;
  for (const RatingRow* r : mine) {
    absl::StrAppend(&band, band.empty() ? "" : " ", Num(x(Month(r->period))), ",",
                    Num(y(r->rating + 2 * r->deviation)));
  }
  for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
    absl::StrAppend(&band, " ", Num(x(Month((*it)->period))), ",", Num(y((*it)->rating - 2 * (*it)->deviation)));
  }
  for (const RatingRow* r : mine) {
    absl::StrAppend(&line, line.empty() ? "" : " ", Num(x(Month(r->period))), ",", Num(y(r->rating)));
  }
  absl::StrAppend(&out, "<polygon class=\"band\" points=\"", band, "\" fill=\"", kBand,
                  "\" fill-opacity=\"0.45\" stroke=\"none\"/>\n", "<polyline class=\"rating\" points=\"", line,
                  "\" fill=\"none\" stroke=\"", kLine, "\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n");
  for (const RatingRow* r : mine) {
    absl::StrAppend(&out, "<circle class=\"point\" cx=\"", Num(x(Month(r->period))), "\" cy=\"", Num(y(r->rating)),
                    "\" r=\"3\" fill=\"", kLine, "\"><title>",
                    XmlText(absl::StrFormat("%s: %.0f \xC2\xB1 %.0f (RD %.0f), %d %s", r->period, r->rating,
                                            2 * r->deviation, r->deviation, r->games,
                                            r->games == 1 ? "game" : "games")),
                    "</title></circle>\n");
  }
  absl::StrAppend(&out, "</svg>\n");
  return out;
}

}  // namespace scribe::games
