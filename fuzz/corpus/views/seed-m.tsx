import React from "react";

interface Props {
  title: string;
}

/** The page header. */
export function Header({ title }: Props) {
  return <h1 className="title">{title}</h1>;
}

export const Footer = () => {
  const year = () => 2024;
  return <footer>{year()}</footer>;
};

export default class Page extends React.Component<Props> {
  render() {
    return (
      <div>
        <Header title={this.props.title} />
      </div>
    );
  }
}
