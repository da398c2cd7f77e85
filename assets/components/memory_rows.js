// The memory list as one element: the rows are data (props.rows, a JSON string in plain ASCII: see
// ui/components/page_json.py), drawn here, so an open page holds one server-side element for the list
// instead of six per memory. User text reaches the template only through {{ }} (text, never HTML).
// Every action is an "action" event with the row's id; the server looks the id up among the rows it
// sent and ignores any other.
export default {
  template: `
    <div class="mr-memory-list" role="list">
      <div v-for="row in list" :key="row.id" class="mr-memory" :class="{ 'mr-memory-hidden': row.hidden }"
           role="listitem" :aria-label="row.name">
        <q-checkbox v-if="selecting" dense class="mr-memory-check" :model-value="isTicked(row)"
                    :aria-label="'Select: ' + row.name" @update:model-value="(value) => tick(row, value)" />
        <div class="mr-memory-body">
          <div class="mr-memory-text" :class="{ 'mr-clamp': row.long && !open[row.id] }">{{ row.text }}</div>
          <q-btn v-if="row.long" flat dense no-caps color="brand" class="mr-expand"
                 :label="open[row.id] ? 'Show less' : 'Show more'" :aria-expanded="open[row.id] ? 'true' : 'false'"
                 @click="open[row.id] = !open[row.id]" />
          <div v-if="row.hidden" class="mr-hidden-note">{{ hiddenNote }}</div>
          <div class="mr-meta mr-inline">{{ row.meta }}</div>
          <div v-if="row.seen" class="mr-meta mr-inline mr-seen">{{ row.seen }}</div>
          <div class="mr-meta" :title="row.usage_title || undefined">{{ row.usage }}</div>
        </div>
        <q-btn flat dense no-caps color="brand" icon="edit" label="Edit" class="mr-row-action"
               :aria-label="'Edit: ' + row.name" :data-memory="row.id" @click="act(row, 'edit')" />
        <q-btn flat round dense color="meta" icon="more_vert" class="mr-row-action" aria-haspopup="menu"
               :aria-label="'More actions for: ' + row.name" :loading="busy === row.id">
          <q-menu auto-close role="menu">
            <q-item clickable role="menuitem" @click="act(row, 'history')"><q-item-section>History</q-item-section></q-item>
            <q-item clickable role="menuitem" @click="act(row, 'toggle_hidden')">
              <q-item-section>{{ row.hidden ? 'Show to coach' : 'Hide from coach' }}</q-item-section>
            </q-item>
            <q-item clickable role="menuitem" class="mr-danger-text" @click="act(row, 'delete')">
              <q-item-section>Delete</q-item-section>
            </q-item>
          </q-menu>
        </q-btn>
      </div>
    </div>
  `,
  props: {
    rows: String,
    selecting: Boolean,
    busy: Number,
    hiddenNote: String,
  },
  data() {
    return { open: {}, ticked: {} };
  },
  computed: {
    list() {
      return this.rows ? JSON.parse(this.rows) : [];
    },
  },
  watch: {
    // New rows from the server carry its selection; a tick made here since is in them.
    rows() {
      this.ticked = {};
    },
  },
  methods: {
    isTicked(row) {
      return row.id in this.ticked ? this.ticked[row.id] : row.selected;
    },
    // A tick shows at once and only its event goes to the server, which does not send the rows back.
    tick(row, value) {
      this.ticked[row.id] = value;
      this.$emit("select", { id: row.id, value: value });
    },
    // The server's word on one row's tick, sent after it took the tick: rows it sent in between
    // (which reset the ticks made here) cannot lose it.
    setTick(id, value) {
      this.ticked[id] = value;
    },
    // "All shown": exactly these rows ticked, without the rows being sent again.
    setTicks(ids) {
      const chosen = new Set(ids);
      for (const row of this.list) this.ticked[row.id] = chosen.has(row.id);
    },
    act(row, action) {
      this.$emit("action", { id: row.id, action: action });
    },
  },
};
