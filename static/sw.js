// The service worker of "Notify this browser" (static/push.js): shows each notice the server
// pushes (its JSON: title, url) and opens the notice's link (the turn) when it is clicked.
self.addEventListener("push", function (event) {
  let notice = {title: "pbem", url: "/"};
  try { notice = event.data.json(); } catch (ignored) { /* (a push without a body) */ }
  event.waitUntil(self.registration.showNotification(notice.title, {
    data: {url: notice.url}, tag: "pbem-" + notice.id, icon: "/static/favicon.svg"}));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  if (url) event.waitUntil(clients.openWindow(url));
});
