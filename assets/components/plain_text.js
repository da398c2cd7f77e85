// A line of text given as a JSON string in plain ASCII (ui/components/page_json.py), shown as text.
export default {
  template: `<span>{{ shown }}</span>`,
  props: {
    text: String,
  },
  computed: {
    shown() {
      return this.text ? JSON.parse(this.text) : "";
    },
  },
};
