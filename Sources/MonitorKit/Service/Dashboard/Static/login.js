// broadcast-monitor login, for a browser on another host: posts the token as `Authorization: Bearer` to /login,
// which answers with the login cookie (HttpOnly: this script never sees it), then loads the dashboard.
"use strict";

(function () {
  function start() {
    const form = document.getElementById("login");
    const token = document.getElementById("login-token");
    const problem = document.getElementById("login-problem");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      problem.textContent = "";
      let response;
      try {
        response = await fetch("login", {
          method: "POST", headers: { Authorization: "Bearer " + token.value.trim() }, credentials: "same-origin",
        });
      } catch (error) {
        problem.textContent = "The login could not be sent: " + error.message;
        return;
      }
      if (response.ok) {
        location.reload();
        return;
      }
      problem.textContent = response.status === 401 ? "Wrong token." : "The login failed: " + response.status;
      token.select();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
