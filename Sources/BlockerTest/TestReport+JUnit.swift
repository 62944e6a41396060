import Foundation

extension TestReport {
  /// The report as JUnit XML, so a CI pipeline can gate on blocking: one test suite per category, one
  /// test case per domain; a reachable or leaking domain is a failure, an inconclusive one is skipped. The control
  /// domains are a suite of their own, where a blocked control is a failure (the score's warning).
  public func junit() -> String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let score = self.score
    let blockedControls = controls.filter { $0.outcome == .blocked }
    out += "<testsuites name=\"sanehosts blocker test\" tests=\"\(results.count + controls.count)\" "
    out += "failures=\"\(score.notBlocked + blockedControls.count)\" "
    out += "skipped=\"\(score.inconclusive)\" time=\(Self.seconds(milliseconds))>\n"
    if !controls.isEmpty {
      out += "  <testsuite name=\"Controls\" tests=\"\(controls.count)\" failures=\"\(blockedControls.count)\" "
      out += "skipped=\"0\" time=\(Self.seconds(controls.reduce(0) { $0 + $1.milliseconds }))>\n"
      if let scoreWarning {
        out += "    <properties><property name=\"warning\" value=\(Self.attribute(scoreWarning))/></properties>\n"
      }
      for control in controls {
        out += "    <testcase classname=\"Controls\" name=\(Self.attribute(control.hostname)) "
        out += "time=\(Self.seconds(control.milliseconds))"
        out +=
          control.outcome == .blocked
          ? ">\n      <failure message=\(Self.attribute("control blocked: \(control.reason)")) type=\"over-blocking\"/>\n    </testcase>\n"
          : "/>\n"
      }
      out += "  </testsuite>\n"
    }
    for category in categories {
      let members = results.filter { $0.category == category.name }
      out += "  <testsuite name=\(Self.attribute(category.name)) tests=\"\(members.count)\" "
      out += "failures=\"\(category.score.notBlocked)\" skipped=\"\(category.score.inconclusive)\" "
      out += "time=\(Self.seconds(members.reduce(0) { $0 + $1.milliseconds }))>\n"
      for result in members {
        out += "    <testcase classname=\(Self.attribute("\(category.name).\(result.provider)")) "
        out += "name=\(Self.attribute(result.hostname)) time=\(Self.seconds(result.milliseconds))"
        switch result.outcome {
        case .blocked:
          out += "/>\n"
        case .reachable, .leaking:
          let kind = result.outcome.rawValue
          out += ">\n      <failure message=\(Self.attribute("\(kind): \(result.reason)")) type=\"\(kind)\"/>\n"
          out += "    </testcase>\n"
        case .inconclusive:
          out += ">\n      <skipped message=\(Self.attribute("inconclusive: \(result.reason)"))/>\n    </testcase>\n"
        }
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  private static func seconds(_ milliseconds: Int) -> String {
    "\"\(String(format: "%.3f", Double(milliseconds) / 1000))\""
  }

  /// A quoted XML attribute value with `& < > "` and control characters escaped.
  static func attribute(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n": out += "&#10;"
      default:
        if scalar.value < 0x20 && scalar != "\t" {
          out += "&#\(scalar.value);"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
