// "Notify this browser" on the home (templates/home/home.html, #push): asks for notifications,
// registers the service worker (sw.js), subscribes with the server's VAPID key and hands the
// subscription to the server, which pushes each notice to it (pbem.mail.channel_send).
(function () {
  "use strict";
  function b64(text) {   // base64url -> bytes, as PushManager wants the key
    const raw = atob((text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }
  function activated(registration) {
    return new Promise(function (resolve) {
      const worker = registration.installing || registration.waiting;
      if (!worker) return resolve(registration);
      worker.addEventListener("statechange", function () {
        if (worker.state === "activated") resolve(registration);
      });
    });
  }
  async function subscribe(box, said) {
    if (await Notification.requestPermission() !== "granted") throw new Error("denied");
    // (Its scope is /static/, not the home's page: `serviceWorker.ready` would never answer
    // here, so the worker's own activation is waited for.)
    const registration = await activated(await navigator.serviceWorker.register("/static/sw.js"));
    const subscription = await registration.pushManager.subscribe(
      {userVisibleOnly: true, applicationServerKey: b64(box.dataset.key)});
    const answer = await fetch(box.dataset.path + "/push", {
      method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify({csrf: box.dataset.csrf, subscription: subscription.toJSON()})});
    if (!answer.ok) throw new Error("refused");
    said.textContent = box.dataset.done;
  }
  document.addEventListener("DOMContentLoaded", function () {
    const box = document.getElementById("push");
    if (!box) return;
    const button = box.querySelector(".notify-browser"), said = box.querySelector(".push-said");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      said.textContent = box.dataset.unsupported;
      return;
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      subscribe(box, said).catch(function (error) {
        said.textContent = box.dataset.unsupported + " (" + error.message + ")";
        box.dataset.failed = error.name + ": " + error.message;
        button.disabled = false;
      });
    });
  });
})();
