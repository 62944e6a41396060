import DNS
import Testing

@Suite("Questions")
struct QuestionTests {
  @Test("Matching ignores ASCII case and a final dot, not the type, class or other bytes")
  func matching() {
    let question = Question(name: "Ads.Example", type: .a)
    #expect(question.matches(Question(name: "aDS.example.", type: .a)))
    #expect(!question.matches(Question(name: "ads.example", type: .aaaa)))
    #expect(!question.matches(Question(name: "ads.example", type: .a, class: 3)))
    #expect(!question.matches(Question(name: "ads.example.com", type: .a)))
    #expect(!question.matches(Question(name: #"ads\.example"#, type: .a)))
    #expect(Question(name: ".", type: .ns).matches(Question(name: ".", type: .ns)))
  }
}
