// Score sheet: "Add a hand" copies the last row of that game with its fields renumbered.
document.querySelectorAll(".t-add").forEach(function (button) {
  button.addEventListener("click", function () {
    var body = button.closest("fieldset").querySelector("tbody");
    var rows = body.querySelectorAll("tr.t-hand");
    var last = rows[rows.length - 1];
    var next = rows.length;
    var copy = last.cloneNode(true);
    copy.querySelector(".t-n").textContent = String(next + 1);
    copy.querySelectorAll("select, input").forEach(function (field) {
      field.name = field.name.replace(/-h\d+-/, "-h" + next + "-");
      if (field.tagName === "INPUT") { field.value = ""; } else { field.selectedIndex = 0; }
    });
    body.appendChild(copy);
  });
});
