/// The App Group the app and its Notification Service Extension share. Add this file to both
/// targets; the id must match the App Groups capability of both.
enum AppGroup {
    static let identifier = "group.com.example.pay"
}
